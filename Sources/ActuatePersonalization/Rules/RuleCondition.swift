/// A condition (a campaign) of a rules file: who it targets, and which actions it shows them.
package struct RuleCondition: Sendable, Hashable {
    /// The condition's id, unique in its file.
    package var id: Int
    /// The condition's name, for people.
    package var name: String?
    /// The ids of the actions it shows, in order.
    package var actionIDs: [Int]
    /// The share of visitors, 0 to 100, held back as a control group: they match, but see nothing.
    package var controlGroupPercent: Double
    /// Who the condition targets; every criterion given must hold.
    package var targeting: RuleTargeting

    /// Creates a condition.
    /// - Parameters:
    ///   - id: The condition's id.
    ///   - name: The condition's name.
    ///   - actionIDs: The ids of the actions it shows.
    ///   - controlGroupPercent: The share of visitors held back, 0 to 100.
    ///   - targeting: Who the condition targets.
    package init(
        id: Int,
        name: String? = nil,
        actionIDs: [Int],
        controlGroupPercent: Double = 0,
        targeting: RuleTargeting = .everyone
    ) {
        self.id = id
        self.name = name
        self.actionIDs = actionIDs
        self.controlGroupPercent = controlGroupPercent
        self.targeting = targeting
    }
}

/// Who a condition targets. Every criterion that is set must hold; a targeting with none matches everyone.
package struct RuleTargeting: Sendable, Hashable {
    /// The current document must match one of these: a name, or a prefix ending in `*` (`product/*`).
    package var documents: [String]?
    /// Products the visitor must have seen.
    package var productsSeen: SeenItemsRule<ProductList>?
    /// Articles the visitor must have seen.
    package var articlesSeen: SeenItemsRule<ArticleList>?
    /// User data fields and the value each must have; `*` accepts any value.
    package var userData: [String: String]?
    /// The range the visitor's session count must be in.
    package var sessionCount: SessionCountRule?

    /// Targeting that matches everyone.
    package static let everyone = RuleTargeting()

    /// Creates targeting.
    /// - Parameters:
    ///   - documents: Names or `*`-prefixes the current document must match one of.
    ///   - productsSeen: Products the visitor must have seen.
    ///   - articlesSeen: Articles the visitor must have seen.
    ///   - userData: User data fields and their required values (`*` for any).
    ///   - sessionCount: The range the session count must be in.
    package init(
        documents: [String]? = nil,
        productsSeen: SeenItemsRule<ProductList>? = nil,
        articlesSeen: SeenItemsRule<ArticleList>? = nil,
        userData: [String: String]? = nil,
        sessionCount: SessionCountRule? = nil
    ) {
        self.documents = documents
        self.productsSeen = productsSeen
        self.articlesSeen = articlesSeen
        self.userData = userData
        self.sessionCount = sessionCount
    }
}

/// The visitor must have at least ``minCount`` items in a list, counting only ``anyOf`` when it is not empty.
package struct SeenItemsRule<List: ItemList>: Sendable, Hashable {
    /// Which of the visitor's lists to look in.
    package var list: List
    /// The items that count; empty means any item.
    package var anyOf: [String]
    /// How many items must be in the list.
    package var minCount: Int

    /// Creates a rule.
    /// - Parameters:
    ///   - list: Which list to look in.
    ///   - anyOf: The items that count; empty for any.
    ///   - minCount: How many must be in the list; at least 1.
    package init(list: List, anyOf: [String] = [], minCount: Int = 1) {
        self.list = list
        self.anyOf = anyOf
        self.minCount = max(1, minCount)
    }
}

/// One of a visitor's lists of items, named by the event that fills it.
package protocol ItemList: RawRepresentable, Sendable, Hashable, CaseIterable where RawValue == String {
    /// The items of this list in `profile`.
    func items(in profile: VisitorProfile) -> Set<String>
}

/// The product lists targeting can look in.
package enum ProductList: String, ItemList {
    /// Products viewed.
    case viewed
    /// Products in the cart (added, and not removed or bought since).
    case addedToCart
    /// Products liked (and not unliked since).
    case liked
    /// Products bought.
    case purchased

    package func items(in profile: VisitorProfile) -> Set<String> {
        switch self {
        case .viewed: profile.viewedProducts
        case .addedToCart: profile.cartProducts
        case .liked: profile.likedProducts
        case .purchased: profile.purchasedProducts
        }
    }
}

/// The article lists targeting can look in.
package enum ArticleList: String, ItemList {
    /// Articles viewed.
    case viewed
    /// Articles liked (and not unliked since).
    case liked
    /// Articles commented on.
    case commented
    /// Articles whose goal was reached.
    case goal

    package func items(in profile: VisitorProfile) -> Set<String> {
        switch self {
        case .viewed: profile.viewedArticles
        case .liked: profile.likedArticles
        case .commented: profile.commentedArticles
        case .goal: profile.goalArticles
        }
    }
}

/// A range of session counts; either bound may be absent.
package struct SessionCountRule: Sendable, Hashable {
    /// The smallest session count that matches.
    package var min: Int?
    /// The largest session count that matches.
    package var max: Int?

    /// Creates a range.
    /// - Parameters:
    ///   - min: The smallest session count that matches.
    ///   - max: The largest session count that matches.
    package init(min: Int? = nil, max: Int? = nil) {
        self.min = min
        self.max = max
    }

    /// Whether `count` is in the range.
    /// - Parameter count: A session count.
    /// - Returns: Whether it matches.
    package func contains(_ count: Int) -> Bool {
        (min.map { count >= $0 } ?? true) && (max.map { count <= $0 } ?? true)
    }
}

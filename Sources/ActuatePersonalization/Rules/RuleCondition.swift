/// A condition (a campaign) of a rules file: who it targets, and which actions it shows them.
public struct RuleCondition: Sendable, Hashable {
    /// The condition's id, unique in its file.
    public var id: Int
    /// The condition's name, for people.
    public var name: String?
    /// The ids of the actions it shows, in order.
    public var actionIDs: [Int]
    /// The share of visitors, 0 to 100, held back as a control group: they match, but see nothing.
    public var controlGroupPercent: Double
    /// Who the condition targets; every criterion given must hold.
    public var targeting: RuleTargeting

    /// Creates a condition.
    /// - Parameters:
    ///   - id: The condition's id.
    ///   - name: The condition's name.
    ///   - actionIDs: The ids of the actions it shows.
    ///   - controlGroupPercent: The share of visitors held back, 0 to 100.
    ///   - targeting: Who the condition targets.
    public init(
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
public struct RuleTargeting: Sendable, Hashable {
    /// The current document must match one of these: a name, or a prefix ending in `*` (`product/*`).
    public var documents: [String]?
    /// Products the visitor must have seen.
    public var productsSeen: SeenItemsRule<ProductList>?
    /// Articles the visitor must have seen.
    public var articlesSeen: SeenItemsRule<ArticleList>?
    /// User data fields and the value each must have; `*` accepts any value.
    public var userData: [String: String]?
    /// The range the visitor's session count must be in.
    public var sessionCount: SessionCountRule?

    /// Targeting that matches everyone.
    public static let everyone = RuleTargeting()

    /// Creates targeting.
    /// - Parameters:
    ///   - documents: Names or `*`-prefixes the current document must match one of.
    ///   - productsSeen: Products the visitor must have seen.
    ///   - articlesSeen: Articles the visitor must have seen.
    ///   - userData: User data fields and their required values (`*` for any).
    ///   - sessionCount: The range the session count must be in.
    public init(
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
public struct SeenItemsRule<List: ItemList>: Sendable, Hashable {
    /// Which of the visitor's lists to look in.
    public var list: List
    /// The items that count; empty means any item.
    public var anyOf: [String]
    /// How many items must be in the list.
    public var minCount: Int

    /// Creates a rule.
    /// - Parameters:
    ///   - list: Which list to look in.
    ///   - anyOf: The items that count; empty for any.
    ///   - minCount: How many must be in the list; at least 1.
    public init(list: List, anyOf: [String] = [], minCount: Int = 1) {
        self.list = list
        self.anyOf = anyOf
        self.minCount = max(1, minCount)
    }
}

/// One of a visitor's lists of items, named by the event that fills it.
public protocol ItemList: RawRepresentable, Sendable, Hashable, CaseIterable where RawValue == String {
    /// The items of this list in `profile`.
    func items(in profile: VisitorProfile) -> Set<String>
}

/// The product lists targeting can look in.
public enum ProductList: String, ItemList {
    /// Products viewed.
    case viewed
    /// Products in the cart (added, and not removed or bought since).
    case addedToCart
    /// Products liked (and not unliked since).
    case liked
    /// Products bought.
    case purchased

    public func items(in profile: VisitorProfile) -> Set<String> {
        switch self {
        case .viewed: profile.viewedProducts
        case .addedToCart: profile.cartProducts
        case .liked: profile.likedProducts
        case .purchased: profile.purchasedProducts
        }
    }
}

/// The article lists targeting can look in.
public enum ArticleList: String, ItemList {
    /// Articles viewed.
    case viewed
    /// Articles liked (and not unliked since).
    case liked
    /// Articles commented on.
    case commented
    /// Articles whose goal was reached.
    case goal

    public func items(in profile: VisitorProfile) -> Set<String> {
        switch self {
        case .viewed: profile.viewedArticles
        case .liked: profile.likedArticles
        case .commented: profile.commentedArticles
        case .goal: profile.goalArticles
        }
    }
}

/// A range of session counts; either bound may be absent.
public struct SessionCountRule: Sendable, Hashable {
    /// The smallest session count that matches.
    public var min: Int?
    /// The largest session count that matches.
    public var max: Int?

    /// Creates a range.
    /// - Parameters:
    ///   - min: The smallest session count that matches.
    ///   - max: The largest session count that matches.
    public init(min: Int? = nil, max: Int? = nil) {
        self.min = min
        self.max = max
    }

    /// Whether `count` is in the range.
    /// - Parameter count: A session count.
    /// - Returns: Whether it matches.
    public func contains(_ count: Int) -> Bool {
        (min.map { count >= $0 } ?? true) && (max.map { count <= $0 } ?? true)
    }
}

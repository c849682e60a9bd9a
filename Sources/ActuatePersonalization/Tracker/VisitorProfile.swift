/// What the tracker knows about the visitor, kept up to date from behaviour commands so that rules are
/// evaluated with set lookups instead of scans of the history.
///
/// Products in the cart are those added and not removed or bought since; liked products and articles are
/// those liked and not unliked since.
package struct VisitorProfile: Sendable, Hashable, Codable {
    /// The document navigated to most recently.
    package var currentDocument: String?
    /// Every document navigated to.
    package var visitedDocuments: Set<String> = []
    /// Products viewed.
    package var viewedProducts: Set<String> = [] { didSet { revisions.lists.0 = ProfileRevisions.next() } }
    /// Products in the cart.
    package var cartProducts: Set<String> = [] { didSet { revisions.lists.1 = ProfileRevisions.next() } }
    /// Products liked.
    package var likedProducts: Set<String> = [] { didSet { revisions.lists.2 = ProfileRevisions.next() } }
    /// Products bought.
    package var purchasedProducts: Set<String> = [] { didSet { revisions.lists.3 = ProfileRevisions.next() } }
    /// Articles viewed.
    package var viewedArticles: Set<String> = [] { didSet { revisions.lists.4 = ProfileRevisions.next() } }
    /// Articles liked.
    package var likedArticles: Set<String> = [] { didSet { revisions.lists.5 = ProfileRevisions.next() } }
    /// Articles commented on.
    package var commentedArticles: Set<String> = [] { didSet { revisions.lists.6 = ProfileRevisions.next() } }
    /// Articles whose goal was reached.
    package var goalArticles: Set<String> = [] { didSet { revisions.lists.7 = ProfileRevisions.next() } }
    /// User data fields, latest value per field.
    package var userData: [String: String] = [:] { didSet { revisions.userData = ProfileRevisions.next() } }
    /// The number of behaviour commands applied.
    package var commandCount = 0
    /// Numbers that change whenever the lists or the user data change; not part of the profile's value.
    private(set) var revisions = ProfileRevisions()

    private enum CodingKeys: String, CodingKey {
        case currentDocument
        case visitedDocuments
        case viewedProducts
        case cartProducts
        case likedProducts
        case purchasedProducts
        case viewedArticles
        case likedArticles
        case commentedArticles
        case goalArticles
        case userData
        case commandCount
    }

    /// Creates an empty profile.
    package init() {}

    /// Updates the profile with one command.
    /// - Parameter command: What the user did.
    package mutating func apply(_ command: BehaviourCommand) {
        commandCount += 1
        switch command {
        case .navigate(let documentName):
            currentDocument = documentName
            visitedDocuments.insert(documentName)
        case .product(let event, let productID):
            apply(event, productID)
        case .article(let event, let articleID):
            switch event {
            case .viewed: edit(ProfileList.index(of: ArticleList.viewed), articleID, added: true)
            case .liked: edit(ProfileList.index(of: ArticleList.liked), articleID, added: true)
            case .unliked: edit(ProfileList.index(of: ArticleList.liked), articleID, added: false)
            case .commented: edit(ProfileList.index(of: ArticleList.commented), articleID, added: true)
            case .goal: edit(ProfileList.index(of: ArticleList.goal), articleID, added: true)
            }
        case .userData(let field, let value):
            userData[field] = value
        }
    }

    private mutating func apply(_ event: ProductEvent, _ productID: String) {
        switch event {
        case .viewed:
            edit(ProfileList.index(of: ProductList.viewed), productID, added: true)
        case .addedToCart:
            edit(ProfileList.index(of: ProductList.addedToCart), productID, added: true)
        case .removedFromCart:
            edit(ProfileList.index(of: ProductList.addedToCart), productID, added: false)
        case .liked:
            edit(ProfileList.index(of: ProductList.liked), productID, added: true)
        case .unliked:
            edit(ProfileList.index(of: ProductList.liked), productID, added: false)
        case .purchased:
            edit(ProfileList.index(of: ProductList.purchased), productID, added: true)
            edit(ProfileList.index(of: ProductList.addedToCart), productID, added: false)
        }
    }

    /// Adds `item` to, or takes it out of, the list numbered `list` in ``ProfileList`` order, and notes the change
    /// in ``revisions`` so that a decision source that saw the list just before can follow it with one lookup.
    private mutating func edit(_ list: Int, _ item: String, added: Bool) {
        let before = revisions.list(list)
        switch (list, added) {
        case (0, true): viewedProducts.insert(item)
        case (0, false): viewedProducts.remove(item)
        case (1, true): cartProducts.insert(item)
        case (1, false): cartProducts.remove(item)
        case (2, true): likedProducts.insert(item)
        case (2, false): likedProducts.remove(item)
        case (3, true): purchasedProducts.insert(item)
        case (3, false): purchasedProducts.remove(item)
        case (4, true): viewedArticles.insert(item)
        case (4, false): viewedArticles.remove(item)
        case (5, true): likedArticles.insert(item)
        case (5, false): likedArticles.remove(item)
        case (6, true): commentedArticles.insert(item)
        case (6, false): commentedArticles.remove(item)
        case (7, true): goalArticles.insert(item)
        default: goalArticles.remove(item)
        }
        revisions.lastChange = ProfileRevisions.ListChange(
            list: list,
            before: before,
            after: revisions.list(list),
            item: item,
            added: added
        )
    }
}

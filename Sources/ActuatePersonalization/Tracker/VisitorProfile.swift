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
    package var viewedProducts: Set<String> = []
    /// Products in the cart.
    package var cartProducts: Set<String> = []
    /// Products liked.
    package var likedProducts: Set<String> = []
    /// Products bought.
    package var purchasedProducts: Set<String> = []
    /// Articles viewed.
    package var viewedArticles: Set<String> = []
    /// Articles liked.
    package var likedArticles: Set<String> = []
    /// Articles commented on.
    package var commentedArticles: Set<String> = []
    /// Articles whose goal was reached.
    package var goalArticles: Set<String> = []
    /// User data fields, latest value per field.
    package var userData: [String: String] = [:]
    /// The number of behaviour commands applied.
    package var commandCount = 0

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
            case .viewed: viewedArticles.insert(articleID)
            case .liked: likedArticles.insert(articleID)
            case .unliked: likedArticles.remove(articleID)
            case .commented: commentedArticles.insert(articleID)
            case .goal: goalArticles.insert(articleID)
            }
        case .userData(let field, let value):
            userData[field] = value
        }
    }

    private mutating func apply(_ event: ProductEvent, _ productID: String) {
        switch event {
        case .viewed:
            viewedProducts.insert(productID)
        case .addedToCart:
            cartProducts.insert(productID)
        case .removedFromCart:
            cartProducts.remove(productID)
        case .liked:
            likedProducts.insert(productID)
        case .unliked:
            likedProducts.remove(productID)
        case .purchased:
            purchasedProducts.insert(productID)
            cartProducts.remove(productID)
        }
    }
}

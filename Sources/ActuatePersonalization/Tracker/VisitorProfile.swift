/// What the tracker knows about the visitor, kept up to date from behaviour commands so that rules are
/// evaluated with set lookups instead of scans of the history.
///
/// Products in the cart are those added and not removed or bought since; liked products and articles are
/// those liked and not unliked since.
public struct VisitorProfile: Sendable, Hashable, Codable {
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
        case .product(let event, let productId):
            apply(event, productId)
        case .article(let event, let articleId):
            switch event {
            case .viewed: viewedArticles.insert(articleId)
            case .liked: likedArticles.insert(articleId)
            case .unliked: likedArticles.remove(articleId)
            case .commented: commentedArticles.insert(articleId)
            case .goal: goalArticles.insert(articleId)
            }
        case .userData(let field, let value):
            userData[field] = value
        }
    }

    private mutating func apply(_ event: ProductEvent, _ productId: String) {
        switch event {
        case .viewed:
            viewedProducts.insert(productId)
        case .addedToCart:
            cartProducts.insert(productId)
        case .removedFromCart:
            cartProducts.remove(productId)
        case .liked:
            likedProducts.insert(productId)
        case .unliked:
            likedProducts.remove(productId)
        case .purchased:
            purchasedProducts.insert(productId)
            cartProducts.remove(productId)
        }
    }
}

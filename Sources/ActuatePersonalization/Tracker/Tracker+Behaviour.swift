import Actuate
import ActuateReporting

/// Behaviour commands: what the user does, recorded for targeting, for the decision source and as
/// `behaviour` (or `purchase`) events.
extension Tracker {
    /// The longest id, document name or field name accepted, in characters.
    static let maximumIdentifierLength = 1_024

    /// Records that the user went to a document (a screen or page). This starts a new page view: duplicate
    /// reports are counted afresh, and an incremental source's next answer replaces the cached result.
    /// - Parameter documentName: The document's name, such as `home` or `product/sku-1`.
    /// - Throws: ``TrackerError/invalidArgument(name:reason:)`` when the name is empty or too long.
    public func navigate(documentName: String) throws(TrackerError) {
        try track(.navigate(documentName: try Self.identifier(documentName, name: "document name")))
    }

    /// Records that the user viewed a product.
    /// - Parameter productID: The product's id in the catalogue.
    /// - Throws: ``TrackerError/invalidArgument(name:reason:)`` when the id is empty or too long.
    public func productViewed(productID: String) throws(TrackerError) {
        try track(.product(.viewed, productID: try Self.identifier(productID, name: "product id")))
    }

    /// Records that the user added a product to the cart.
    /// - Parameter productID: The product's id in the catalogue.
    /// - Throws: ``TrackerError/invalidArgument(name:reason:)`` when the id is empty or too long.
    public func productAddedToCart(productID: String) throws(TrackerError) {
        try track(.product(.addedToCart, productID: try Self.identifier(productID, name: "product id")))
    }

    /// Records that the user liked a product.
    /// - Parameter productID: The product's id in the catalogue.
    /// - Throws: ``TrackerError/invalidArgument(name:reason:)`` when the id is empty or too long.
    public func productLiked(productID: String) throws(TrackerError) {
        try track(.product(.liked, productID: try Self.identifier(productID, name: "product id")))
    }

    /// Records that the user bought a product; it is also recorded as a `purchase` event, which statistics
    /// credit to earlier product clicks.
    /// - Parameter productID: The product's id in the catalogue.
    /// - Throws: ``TrackerError/invalidArgument(name:reason:)`` when the id is empty or too long.
    public func productPurchased(productID: String) throws(TrackerError) {
        try track(.product(.purchased, productID: try Self.identifier(productID, name: "product id")))
    }

    /// Records that the user took back a like.
    /// - Parameter productID: The product's id in the catalogue.
    /// - Throws: ``TrackerError/invalidArgument(name:reason:)`` when the id is empty or too long.
    public func productUnliked(productID: String) throws(TrackerError) {
        try track(.product(.unliked, productID: try Self.identifier(productID, name: "product id")))
    }

    /// Records that the user took a product out of the cart.
    /// - Parameter productID: The product's id in the catalogue.
    /// - Throws: ``TrackerError/invalidArgument(name:reason:)`` when the id is empty or too long.
    public func productRemovedFromCart(productID: String) throws(TrackerError) {
        try track(.product(.removedFromCart, productID: try Self.identifier(productID, name: "product id")))
    }

    /// Records that the user viewed an article.
    /// - Parameter articleID: The article's id.
    /// - Throws: ``TrackerError/invalidArgument(name:reason:)`` when the id is empty or too long.
    public func articleViewed(articleID: String) throws(TrackerError) {
        try track(.article(.viewed, articleID: try Self.identifier(articleID, name: "article id")))
    }

    /// Records that the user liked an article.
    /// - Parameter articleID: The article's id.
    /// - Throws: ``TrackerError/invalidArgument(name:reason:)`` when the id is empty or too long.
    public func articleLiked(articleID: String) throws(TrackerError) {
        try track(.article(.liked, articleID: try Self.identifier(articleID, name: "article id")))
    }

    /// Records that the user commented on an article.
    /// - Parameter articleID: The article's id.
    /// - Throws: ``TrackerError/invalidArgument(name:reason:)`` when the id is empty or too long.
    public func articleCommented(articleID: String) throws(TrackerError) {
        try track(.article(.commented, articleID: try Self.identifier(articleID, name: "article id")))
    }

    /// Records that the user took back a like of an article.
    /// - Parameter articleID: The article's id.
    /// - Throws: ``TrackerError/invalidArgument(name:reason:)`` when the id is empty or too long.
    public func articleUnliked(articleID: String) throws(TrackerError) {
        try track(.article(.unliked, articleID: try Self.identifier(articleID, name: "article id")))
    }

    /// Records that an article reached its goal (read to the end, shared, …).
    /// - Parameter articleID: The article's id.
    /// - Throws: ``TrackerError/invalidArgument(name:reason:)`` when the id is empty or too long.
    public func articleGoal(articleID: String) throws(TrackerError) {
        try track(.article(.goal, articleID: try Self.identifier(articleID, name: "article id")))
    }

    /// Records a field of user data, for targeting. The value goes to the decision source but never into a
    /// report event, a log or the timeline.
    /// - Parameters:
    ///   - field: The field's name, such as `tier`.
    ///   - value: Its value; may be empty.
    /// - Throws: ``TrackerError/invalidArgument(name:reason:)`` when the field is empty or too long.
    public func logUserData(field: String, value: String) throws(TrackerError) {
        try track(.userData(field: try Self.identifier(field, name: "user data field"), value: value))
    }

    /// Records any behaviour command: updates the profile, keeps the command for an incremental source, and
    /// performs ``TrackBehaviourAction`` (or ``TrackPurchaseAction`` for a purchase).
    /// - Parameter command: What the user did.
    /// - Throws: ``TrackerError/invalidArgument(name:reason:)`` when an id or name in it is empty or too long.
    func track(_ command: BehaviourCommand) throws(TrackerError) {
        try Self.validate(command)
        continueSession()
        let incremental = source.isIncremental
        core.withLock { $0.tracker.record(command, keepPending: incremental) }
        // Handed to the writer, not written here: a crash loses at most the last few milliseconds of commands.
        persistState()
        if case .product(.purchased, _) = command {
            perform(PersonalizationFeature.trackPurchase, input: command, userInitiated: true)
        } else {
            perform(PersonalizationFeature.trackBehaviour, input: command, userInitiated: true)
        }
    }

    private static func validate(_ command: BehaviourCommand) throws(TrackerError) {
        switch command {
        case .navigate(let documentName): _ = try identifier(documentName, name: "document name")
        case .product(_, let productID): _ = try identifier(productID, name: "product id")
        case .article(_, let articleID): _ = try identifier(articleID, name: "article id")
        case .userData(let field, _): _ = try identifier(field, name: "user data field")
        }
    }

    static func identifier(_ value: String, name: String) throws(TrackerError) -> String {
        if value.allSatisfy(\.isWhitespace) {
            throw .invalidArgument(name: name, reason: "it is empty")
        }
        if value.count > maximumIdentifierLength {
            throw .invalidArgument(
                name: name,
                reason: "it is \(value.count) characters, more than \(maximumIdentifierLength)"
            )
        }
        return value
    }
}

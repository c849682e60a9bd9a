import Synchronization

/// Answers whether products are purchased, for features with ``FeatureConstraintsBuilder/purchase(_:)``.
///
/// Apps implement it over their store (StoreKit, a receipt server) and call the change handlers when a
/// purchase is validated or revoked; tests use ``InMemoryPurchaseValidator``.
public protocol PurchaseValidator: Sendable {
    /// Whether `productID` is purchased, or nil while that is not yet validated.
    func isPurchased(_ productID: String) -> Bool?

    /// Calls `handler` with every product whose purchase state changes.
    ///
    /// - Returns: The subscription; keep it as long as you want to hear about changes.
    func observeChanges(_ handler: @escaping @Sendable (_ productID: String) -> Void) -> ChangeSubscription
}

/// A purchase validator with answers set by hand; products not set are not yet validated (nil).
public final class InMemoryPurchaseValidator: PurchaseValidator {
    private let purchases: Mutex<[String: Bool]>
    private let handlers = ChangeHandlers<String>()

    /// Creates a validator with the given answers.
    public init(_ purchases: [String: Bool] = [:]) {
        self.purchases = Mutex(purchases)
    }

    public func isPurchased(_ productID: String) -> Bool? {
        purchases.withLock { $0[productID] }
    }

    /// Records whether `productID` is purchased (nil: not validated) and notifies the handlers if it changed.
    public func setPurchased(_ purchased: Bool?, for productID: String) {
        let changed = purchases.withLock { purchases -> Bool in
            defer { purchases[productID] = purchased }
            return purchases[productID] != purchased
        }
        if changed { handlers.notify(productID) }
    }

    public func observeChanges(_ handler: @escaping @Sendable (String) -> Void) -> ChangeSubscription {
        handlers.add(handler)
    }
}

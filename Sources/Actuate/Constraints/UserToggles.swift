import Synchronization

/// Where user-facing feature switches are kept, for features with
/// ``FeatureConstraintsBuilder/userToggled(key:defaultValue:)``.
///
/// A toggle's key is, by default, the feature's path, such as `AppFeatures/DarkModeFeature`.
public protocol UserToggles: Sendable {
    /// The user's choice for `key`, or nil when the user has not chosen and the default applies.
    func isEnabled(_ key: String) -> Bool?

    /// Records the user's choice for `key` (nil forgets it) and notifies the change handlers.
    func setEnabled(_ enabled: Bool?, for key: String)

    /// Calls `handler` with the key of every toggle that changes.
    ///
    /// - Returns: The subscription; keep it as long as you want to hear about changes.
    func observeChanges(_ handler: @escaping @Sendable (_ key: String) -> Void) -> ChangeSubscription
}

/// User toggles kept in memory: for tests, previews, and apps that persist toggles themselves.
public final class InMemoryUserToggles: UserToggles {
    private let values: Mutex<[String: Bool]>
    private let handlers = ChangeHandlers<String>()

    /// Creates toggles with the given initial choices.
    public init(_ values: [String: Bool] = [:]) {
        self.values = Mutex(values)
    }

    public func isEnabled(_ key: String) -> Bool? {
        values.withLock { $0[key] }
    }

    public func setEnabled(_ enabled: Bool?, for key: String) {
        let changed = values.withLock { values -> Bool in
            defer { values[key] = enabled }
            return values[key] != enabled
        }
        if changed { handlers.notify(key) }
    }

    public func observeChanges(_ handler: @escaping @Sendable (String) -> Void) -> ChangeSubscription {
        handlers.add(handler)
    }
}

import Foundation

/// User toggles persisted in `UserDefaults`, under keys prefixed with `actuate.toggle.`.
///
/// Changes made through this object notify its handlers; changes written to the defaults by other code are
/// not observed, so make them through ``setEnabled(_:for:)``.
public final class UserDefaultsUserToggles: UserToggles {
    /// The prefix of every key written.
    static let keyPrefix = "actuate.toggle."

    /// Holds the defaults; UserDefaults is Sendable in Apple's SDKs but not in every Foundation.
    private struct DefaultsBox: @unchecked Sendable {
        // Safe: UserDefaults is documented as thread-safe, and only its thread-safe accessors are called.
        let defaults: UserDefaults
    }

    private let box: DefaultsBox
    private var defaults: UserDefaults { box.defaults }
    private let handlers = ChangeHandlers<String>()

    /// Creates toggles backed by `defaults`.
    ///
    /// - Parameter defaults: The defaults to read and write; `.standard` by default. Tests should pass
    ///   `UserDefaults(suiteName:)` with a unique name.
    public init(defaults: UserDefaults = .standard) {
        self.box = DefaultsBox(defaults: defaults)
    }

    public func isEnabled(_ key: String) -> Bool? {
        defaults.object(forKey: Self.keyPrefix + key) as? Bool
    }

    public func setEnabled(_ enabled: Bool?, for key: String) {
        if let enabled {
            defaults.set(enabled, forKey: Self.keyPrefix + key)
        } else {
            defaults.removeObject(forKey: Self.keyPrefix + key)
        }
        handlers.notify(key)
    }

    public func observeChanges(_ handler: @escaping @Sendable (String) -> Void) -> ChangeSubscription {
        handlers.add(handler)
    }
}

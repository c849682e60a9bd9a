import Synchronization

/// A system permission a feature may need, such as the camera.
public struct Permission: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The permission's identifier.
    public let rawValue: String

    /// Creates a permission; use the static members for the common ones.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The camera.
    public static let camera = Permission(rawValue: "camera")
    /// The microphone.
    public static let microphone = Permission(rawValue: "microphone")
    /// The photo library.
    public static let photos = Permission(rawValue: "photos")
    /// The contacts.
    public static let contacts = Permission(rawValue: "contacts")
    /// The calendars.
    public static let calendars = Permission(rawValue: "calendars")
    /// Location while the app is in use.
    public static let locationWhenInUse = Permission(rawValue: "location-when-in-use")
    /// Location at all times.
    public static let locationAlways = Permission(rawValue: "location-always")
    /// User notifications.
    public static let notifications = Permission(rawValue: "notifications")
    /// Motion and fitness data.
    public static let motion = Permission(rawValue: "motion")
    /// Bluetooth.
    public static let bluetooth = Permission(rawValue: "bluetooth")

    public var description: String { rawValue }
}

/// Whether the user has granted a permission.
public enum PermissionStatus: String, Sendable, Hashable, Codable {
    /// Granted.
    case authorized
    /// Refused by the user.
    case denied
    /// Refused by policy, such as parental controls.
    case restricted
    /// Not asked yet: the feature's availability is unknown until the user answers.
    case notDetermined
}

/// Answers whether permissions are granted, for features with ``FeatureConstraintsBuilder/permission(_:)``.
///
/// Apps implement it over the platform's authorization APIs and call their change handlers when an answer
/// changes; tests use ``InMemoryPermissionChecker``.
public protocol PermissionChecker: Sendable {
    /// The current status of `permission`.
    func status(of permission: Permission) -> PermissionStatus

    /// Calls `handler` with every permission whose status changes.
    ///
    /// - Returns: The subscription; keep it as long as you want to hear about changes.
    func observeChanges(_ handler: @escaping @Sendable (Permission) -> Void) -> ChangeSubscription
}

/// A permission checker with statuses set by hand, which records every check it answers.
public final class InMemoryPermissionChecker: PermissionChecker {
    private struct State {
        var statuses: [Permission: PermissionStatus]
        var checks: [Permission] = []
    }

    private let state: Mutex<State>
    private let handlers = ChangeHandlers<Permission>()

    /// Creates a checker. Permissions not listed are ``PermissionStatus/notDetermined``.
    public init(_ statuses: [Permission: PermissionStatus] = [:]) {
        self.state = Mutex(State(statuses: statuses))
    }

    public func status(of permission: Permission) -> PermissionStatus {
        state.withLock { state in
            state.checks.append(permission)
            return state.statuses[permission] ?? .notDetermined
        }
    }

    /// Sets a permission's status and notifies the change handlers if it changed.
    public func setStatus(_ status: PermissionStatus, for permission: Permission) {
        let changed = state.withLock { state -> Bool in
            defer { state.statuses[permission] = status }
            return (state.statuses[permission] ?? .notDetermined) != status
        }
        if changed { handlers.notify(permission) }
    }

    /// Every permission checked so far, in order: one entry per evaluation that consulted it.
    var checkedPermissions: [Permission] {
        state.withLock { $0.checks }
    }

    public func observeChanges(_ handler: @escaping @Sendable (Permission) -> Void) -> ChangeSubscription {
        handlers.add(handler)
    }
}

/// One condition a ``ConditionalFeature`` needs to be available.
enum FeatureConstraint: Sendable, CustomStringConvertible {
    /// The process runs on one of these platforms, at or above its version.
    case platforms([PlatformRequirement])
    /// A check the app makes at run time; nil means not yet known.
    case runtime(name: String, check: @Sendable () -> Bool?)
    /// A user-facing switch in ``UserToggles``, with the value used while the user has not chosen. A nil key
    /// means the feature's path.
    case userToggle(key: String?, defaultValue: Bool)
    /// A permission the user must have granted.
    case permission(Permission)
    /// A product the user must have purchased.
    case purchase(productID: String)

    var description: String {
        switch self {
        case .platforms(let platforms): "platform: " + platforms.map(\.description).joined(separator: " or ")
        case .runtime(let name, _): "runtime: \(name)"
        case .userToggle(let key, let defaultValue): "user toggle \(key ?? "(feature path)") (default \(defaultValue))"
        case .permission(let permission): "permission: \(permission)"
        case .purchase(let productID): "purchase: \(productID)"
        }
    }
}

/// Collects the conditions a ``ConditionalFeature`` declares in
/// ``ConditionalFeature/constraints(requirements:)``. Every condition must hold for the feature to be available.
///
/// <!-- readme: in extension ProFeature -->
/// ```swift
/// static func constraints(requirements: FeatureConstraintsBuilder) {
///     requirements.platform(.iOS(18), .macOS(15), .linux)
///     requirements.userToggled(defaultValue: true)
///     requirements.permission(.camera)
///     requirements.purchase("com.example.pro")
/// }
/// ```
public final class FeatureConstraintsBuilder {
    private(set) var constraints: [FeatureConstraint] = []
    private var platforms: [PlatformRequirement] = []
    private let isEnabled: @Sendable () -> Bool?

    init(isEnabled: @escaping @Sendable () -> Bool?) {
        self.isEnabled = isEnabled
    }

    /// The constraints, with every platform requirement gathered into one.
    var allConstraints: [FeatureConstraint] {
        platforms.isEmpty ? constraints : [.platforms(platforms)] + constraints
    }

    /// Limits the feature to these platforms and versions; calls add up. Unknown platforms never qualify.
    ///
    /// - Parameter requirements: Such as `.iOS(18)`, `.macOS(15)` or `.linux`.
    public func platform(_ requirements: PlatformRequirement...) {
        platforms += requirements
    }

    /// Makes the feature depend on its ``ConditionalFeature/isEnabled`` property, read at each evaluation.
    public func runtimeEnabled() {
        constraints.append(.runtime(name: "isEnabled", check: isEnabled))
    }

    /// Makes the feature depend on a check made at run time.
    ///
    /// Results are cached; after the check's answer changes, call ``FeatureAvailability/invalidate()``.
    /// - Parameters:
    ///   - name: A name for reports.
    ///   - check: Returns whether the feature is enabled, or nil while that is not known.
    public func runtimeEnabled(_ name: String, _ check: @escaping @Sendable () -> Bool?) {
        constraints.append(.runtime(name: name, check: check))
    }

    /// Makes the feature depend on a switch the user controls, kept in the system's ``UserToggles``.
    ///
    /// - Parameters:
    ///   - key: The toggle's key; by default the feature's path, such as `AppFeatures/DarkModeFeature`.
    ///   - defaultValue: The value while the user has not chosen.
    public func userToggled(key: String? = nil, defaultValue: Bool) {
        constraints.append(.userToggle(key: key, defaultValue: defaultValue))
    }

    /// Makes the feature depend on permissions the user grants. Not yet asked means not yet known.
    public func permission(_ permissions: Permission...) {
        constraints += permissions.map { .permission($0) }
    }

    /// Makes the feature depend on a purchase. Not yet validated means not yet known.
    ///
    /// - Parameter productID: The product's identifier in the app's store.
    public func purchase(_ productID: String) {
        constraints.append(.purchase(productID: productID))
    }
}

import Foundation
import Synchronization

/// Decides which features are available, from their constraints, their groups and the sources of toggles,
/// permissions and purchases; one instance per `ActuateSystem`.
///
/// Answers are tri-state: `true`, `false`, or `nil` while unknown (a permission not yet asked, a purchase not
/// yet validated, a runtime check that cannot tell yet). A feature is available only when:
/// - it was registered here (directly or through its group): an unregistered feature is never available;
/// - its group is available;
/// - each of its constraints holds.
///
/// Answers are cached per feature path. The cache empties whenever the user toggles, permissions or purchases
/// report a change, and on ``invalidate()`` (for runtime checks, which cannot report changes).
public final class FeatureAvailability: Sendable {
    /// The user-facing switches.
    let userToggles: any UserToggles
    /// The permission statuses.
    let permissions: any PermissionChecker
    /// The purchase states.
    let purchases: any PurchaseValidator
    /// The platform constraints are checked against.
    let platform: RuntimePlatform

    private struct Entry: Sendable {
        let path: FeaturePath
        let parent: ObjectIdentifier?
        let constraints: [FeatureConstraint]
    }

    private struct State: Sendable {
        var entries: [ObjectIdentifier: Entry] = [:]
        var order: [ObjectIdentifier] = []
        var cache: [FeaturePath: Bool?] = [:]
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())
    private let subscriptions = Mutex<[ChangeSubscription]>([])

    /// Creates an availability evaluator with no features registered.
    ///
    /// - Parameters:
    ///   - userToggles: Where user toggles are kept; in memory by default.
    ///   - permissions: What answers permission checks; by default every permission is not yet determined.
    ///   - purchases: What validates purchases; by default no purchase is validated yet.
    public convenience init(
        userToggles: any UserToggles = InMemoryUserToggles(),
        permissions: any PermissionChecker = InMemoryPermissionChecker(),
        purchases: any PurchaseValidator = InMemoryPurchaseValidator()
    ) {
        self.init(userToggles: userToggles, permissions: permissions, purchases: purchases, platform: .current)
    }

    /// Creates an availability evaluator that checks platform constraints against `platform` (tests check
    /// other platforms with it).
    init(
        userToggles: any UserToggles = InMemoryUserToggles(),
        permissions: any PermissionChecker = InMemoryPermissionChecker(),
        purchases: any PurchaseValidator = InMemoryPurchaseValidator(),
        platform: RuntimePlatform
    ) {
        self.userToggles = userToggles
        self.permissions = permissions
        self.purchases = purchases
        self.platform = platform
        let observers = [
            userToggles.observeChanges { [weak self] _ in self?.invalidate() },
            permissions.observeChanges { [weak self] _ in self?.invalidate() },
            purchases.observeChanges { [weak self] _ in self?.invalidate() },
        ]
        subscriptions.withLock { $0 = observers }
    }

    /// Registers `feature` and, if it is a group, everything inside it, so that they can be available.
    ///
    /// Also registers them with the process-wide feature registry, which gives subfeatures their group's path.
    /// Nothing is registered when two types of the group would have the same path.
    /// - Parameter feature: A feature or a feature group.
    /// - Throws: ``FeaturePathClash`` naming the path and both full type names.
    public func register(_ feature: any FeatureDefinition.Type) throws(FeaturePathClash) {
        try FeatureRegistry.shared.register(feature)
        var entries: [(ObjectIdentifier, Entry)] = []
        collect(feature, parent: nil, into: &entries)
        state.withLock { state in
            for (id, entry) in entries {
                if state.entries.updateValue(entry, forKey: id) == nil { state.order.append(id) }
            }
            state.cache.removeAll()
            state.generation += 1
        }
    }

    /// Whether `feature` was registered here.
    func isRegistered<F: FeatureDefinition>(_ feature: F.Type) -> Bool {
        state.withLock { $0.entries[ObjectIdentifier(feature)] != nil }
    }

    /// Whether `feature` is available: `true`, `false`, or `nil` while that is not yet known.
    ///
    /// An unregistered feature gives `false`. The answer is cached until a precondition changes.
    public func isAvailable<F: FeatureDefinition>(_ feature: F.Type) -> Bool? {
        evaluate(ObjectIdentifier(feature))
    }

    /// Forgets every cached answer, for example after a runtime check's answer changed.
    public func invalidate() {
        state.withLock { state in
            state.cache.removeAll()
            state.generation += 1
        }
    }

    /// Records the user's choice for the toggle of `feature` (nil forgets it): its own key if its
    /// ``FeatureConstraintsBuilder/userToggled(key:defaultValue:)`` named one, its path otherwise.
    ///
    /// - Parameters:
    ///   - feature: A registered feature with a user toggle.
    ///   - enabled: The choice, or nil to fall back to the default.
    /// - Returns: Whether the feature has a user toggle to set.
    @discardableResult
    public func setUserToggle<F: FeatureDefinition>(_ feature: F.Type, enabled: Bool?) -> Bool {
        guard let entry = state.withLock({ $0.entries[ObjectIdentifier(feature)] }) else { return false }
        let keys = entry.constraints.compactMap { constraint -> String? in
            if case .userToggle(let key, _) = constraint { return key ?? entry.path.description }
            return nil
        }
        for key in keys { userToggles.setEnabled(enabled, for: key) }
        return !keys.isEmpty
    }

    /// Why `feature` is or is not available, constraint by constraint, evaluated now.
    func report<F: FeatureDefinition>(for feature: F.Type) -> FeatureAvailabilityReport {
        report(ObjectIdentifier(feature), fallbackPath: FeaturePath([String(describing: feature)]))
    }

    /// The reports of every registered feature, in registration order.
    func reports() -> [FeatureAvailabilityReport] {
        state.withLock { $0.order }.map { report($0, fallbackPath: FeaturePath([])) }
    }

    private func report(_ id: ObjectIdentifier, fallbackPath: FeaturePath) -> FeatureAvailabilityReport {
        guard let entry = state.withLock({ $0.entries[id] }) else {
            return FeatureAvailabilityReport(
                path: fallbackPath,
                isRegistered: false,
                isAvailable: false,
                parentAvailable: nil,
                constraints: []
            )
        }
        return FeatureAvailabilityReport(
            path: entry.path,
            isRegistered: true,
            isAvailable: evaluate(id),
            parentAvailable: entry.parent.map { evaluate($0) } ?? true,
            constraints: entry.constraints.map {
                FeatureAvailabilityReport.ConstraintResult(
                    constraint: $0.description,
                    satisfied: evaluate($0, path: entry.path)
                )
            }
        )
    }

    private func evaluate(_ id: ObjectIdentifier) -> Bool? {
        let (entry, cached, generation) = state.withLock { state -> (Entry?, Bool??, UInt64) in
            let entry = state.entries[id]
            return (entry, entry.flatMap { state.cache[$0.path] }, state.generation)
        }
        guard let entry else { return false }
        if let cached { return cached }
        var answers: [Bool?] = [entry.parent.map { evaluate($0) } ?? true]
        if answers[0] != false {
            for constraint in entry.constraints {
                let answer = evaluate(constraint, path: entry.path)
                answers.append(answer)
                if answer == false { break }
            }
        }
        let result = Self.combine(answers)
        state.withLock { state in
            if state.generation == generation { state.cache[entry.path] = .some(result) }
        }
        return result
    }

    private func evaluate(_ constraint: FeatureConstraint, path: FeaturePath) -> Bool? {
        switch constraint {
        case .platforms(let requirements):
            requirements.contains { $0.isSatisfied(by: platform) }
        case .runtime(_, let check):
            check()
        case .userToggle(let key, let defaultValue):
            userToggles.isEnabled(key ?? path.description) ?? defaultValue
        case .permission(let permission):
            switch permissions.status(of: permission) {
            case .authorized: true
            case .denied, .restricted: false
            case .notDetermined: nil
            }
        case .purchase(let productID):
            purchases.isPurchased(productID)
        }
    }

    /// `false` if any answer is false, else `nil` if any is unknown, else `true`.
    private static func combine(_ answers: [Bool?]) -> Bool? {
        if answers.contains(false) { return false }
        if answers.contains(nil) { return nil }
        return true
    }

    private func collect(
        _ feature: any FeatureDefinition.Type,
        parent: ObjectIdentifier?,
        into entries: inout [(ObjectIdentifier, Entry)]
    ) {
        let id = ObjectIdentifier(feature)
        entries.append((id, Self.entry(for: feature, parent: parent)))
        if let group = FeatureKinds.group(of: feature) {
            for subfeature in group.subfeatures { collect(subfeature, parent: id, into: &entries) }
        }
    }

    private static func entry<F: FeatureDefinition>(for feature: F.Type, parent: ObjectIdentifier?) -> Entry {
        let path = FeatureRegistry.shared.metadata(for: feature).path
        guard let conditional = FeatureKinds.conditional(of: feature) else {
            return Entry(path: path, parent: parent, constraints: [])
        }
        return Entry(path: path, parent: parent, constraints: constraints(of: conditional))
    }

    private static func constraints<F: ConditionalFeature>(of feature: F.Type) -> [FeatureConstraint] {
        let builder = FeatureConstraintsBuilder(isEnabled: { F.isEnabled })
        F.constraints(requirements: builder)
        return builder.allConstraints
    }
}

extension FeatureAvailability: DebugReportable {
    public var debugReportSectionName: String { "availability" }
    public var debugReportOrder: Int { 50 }

    public func debugReportJSON() throws -> Data {
        try DebugReport.makeJSONEncoder().encode(reports())
    }

    public func debugReportText() -> String {
        reports().map(\.description).joined(separator: "\n") + "\n"
    }
}

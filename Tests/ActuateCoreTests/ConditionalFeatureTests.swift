import Dispatch
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuateTesting

// MARK: - Fixtures

final class ScanAction: Action {
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

final class CameraFeature: ConditionalFeature {
    static let scan = action(ScanAction.self)
    static func constraints(requirements: FeatureConstraintsBuilder) { requirements.permission(.camera) }
    static func prepare(actions: FeatureActionsBuilder) { actions.declare(scan) }
}

final class ProFeature: ConditionalFeature {
    static func constraints(requirements: FeatureConstraintsBuilder) { requirements.purchase("com.example.pro") }
}

final class ToggledOnFeature: ConditionalFeature {
    static func constraints(requirements: FeatureConstraintsBuilder) { requirements.userToggled(defaultValue: true) }
}

final class ToggledOffFeature: ConditionalFeature {
    static func constraints(requirements: FeatureConstraintsBuilder) { requirements.userToggled(defaultValue: false) }
}

final class DarkModeFeature: ConditionalFeature {
    static func constraints(requirements: FeatureConstraintsBuilder) {
        requirements.userToggled(key: "dark-mode", defaultValue: false)
    }
}

final class ModernPlatformsFeature: ConditionalFeature {
    static func constraints(requirements: FeatureConstraintsBuilder) {
        requirements.platform(.iOS(18), .macOS(15))
        requirements.platform(.linux)
    }
}

final class ApplePlatformsFeature: ConditionalFeature {
    static func constraints(requirements: FeatureConstraintsBuilder) {
        requirements.platform(.iOS(18, 2), .macOS(15), .visionOS(2))
    }
}

final class RuntimeOnFeature: ConditionalFeature {
    static var isEnabled: Bool? { true }
    static func constraints(requirements: FeatureConstraintsBuilder) { requirements.runtimeEnabled() }
}

final class RuntimeOffFeature: ConditionalFeature {
    static var isEnabled: Bool? { false }
    static func constraints(requirements: FeatureConstraintsBuilder) { requirements.runtimeEnabled() }
}

/// Declares `runtimeEnabled()` without implementing `isEnabled`, so its answer stays unknown.
final class RuntimeUnknownFeature: ConditionalFeature {
    static func constraints(requirements: FeatureConstraintsBuilder) { requirements.runtimeEnabled() }
}

final class ClosureRuntimeFeature: ConditionalFeature {
    static func constraints(requirements: FeatureConstraintsBuilder) {
        requirements.runtimeEnabled("server says yes") { true }
    }
}

/// An unknown permission, an unknown purchase and a toggle that is off: off wins.
final class MixedFeature: ConditionalFeature {
    static func constraints(requirements: FeatureConstraintsBuilder) {
        requirements.permission(.microphone)
        requirements.purchase("com.example.mixed")
        requirements.userToggled(defaultValue: false)
    }
}

final class UnconstrainedFeature: ConditionalFeature {
    static let scan = action(ScanAction.self)
    static func constraints(requirements: FeatureConstraintsBuilder) {}
    static func prepare(actions: FeatureActionsBuilder) { actions.publish(scan) }
}

/// Never registered with any availability or system.
final class NeverRegisteredFeature: ConditionalFeature {
    static let scan = action(ScanAction.self)
    static func constraints(requirements: FeatureConstraintsBuilder) {}
    static func prepare(actions: FeatureActionsBuilder) { actions.declare(scan) }
}

/// A conditional group: its subfeature is available only while the group's toggle is on.
final class BetaGroup: ConditionalFeature, FeatureGroup {
    static let subfeatures: [any FeatureDefinition.Type] = [BetaChildFeature.self, PlainBetaChildFeature.self]
    static func constraints(requirements: FeatureConstraintsBuilder) {
        requirements.userToggled(key: "beta", defaultValue: false)
    }
}

final class BetaChildFeature: ConditionalFeature {
    static var isEnabled: Bool? { true }
    static func constraints(requirements: FeatureConstraintsBuilder) { requirements.runtimeEnabled() }
}

final class PlainBetaChildFeature: Feature {}

final class ConstraintFixtures: FeatureGroup {
    static let subfeatures: [any FeatureDefinition.Type] = [
        CameraFeature.self, ProFeature.self, ToggledOnFeature.self, ToggledOffFeature.self, DarkModeFeature.self,
        ModernPlatformsFeature.self, ApplePlatformsFeature.self, RuntimeOnFeature.self, RuntimeOffFeature.self,
        RuntimeUnknownFeature.self, ClosureRuntimeFeature.self, MixedFeature.self, UnconstrainedFeature.self,
        BetaGroup.self,
    ]

    /// An availability with `ConstraintFixtures` registered.
    static func availability(
        toggles: any UserToggles = InMemoryUserToggles(),
        permissions: any PermissionChecker = InMemoryPermissionChecker(),
        purchases: any PurchaseValidator = InMemoryPurchaseValidator(),
        platform: RuntimePlatform = RuntimePlatform(kind: .linux, version: PlatformVersion(6, 8))
    ) -> FeatureAvailability {
        let availability = FeatureAvailability(
            userToggles: toggles,
            permissions: permissions,
            purchases: purchases,
            platform: platform
        )
        try! availability.register(ConstraintFixtures.self)
        return availability
    }
}

// MARK: - Tests

@Suite("Conditional features")
struct ConditionalFeatureTests {
    @Test("request() gives nil while the feature is unavailable and a binding once it is")
    func requestFollowsAvailability() {
        let permissions = InMemoryPermissionChecker()
        let availability = ConstraintFixtures.availability(permissions: permissions)
        #expect(CameraFeature.scan.request(from: availability) == nil)
        permissions.setStatus(.denied, for: .camera)
        #expect(CameraFeature.scan.request(from: availability) == nil)
        permissions.setStatus(.authorized, for: .camera)
        #expect(CameraFeature.scan.request(from: availability) != nil)
    }

    @Test("a verified binding performs like a static binding, through a session, into the timeline")
    func verifiedBindingPerforms() async throws {
        let harness = ActionTestHarness()
        let availability = ConstraintFixtures.availability(
            permissions: InMemoryPermissionChecker([.camera: .authorized])
        )
        let scan = try #require(CameraFeature.scan.request(from: availability))
        let outcome = await harness.session.perform(scan, input: .noInput, presenter: ())
        #expect(outcome.isSuccess)
        let completed = await withCheckedContinuation { continuation in
            harness.session.perform(scan, input: .noInput, presenter: ()) { continuation.resume(returning: $0) }
        }
        #expect(completed.isSuccess)
        #expect(harness.timeline.snapshot().map(\.featureName) == ["Camera", "Camera"])
        #expect(harness.timeline.snapshot().map(\.actionName) == ["Scan", "Scan"])
        harness.checkDiagnostics()
    }

    @Test("a verified binding performs in its action's default session")
    func verifiedBindingDefaultSession() async throws {
        let availability = ConstraintFixtures.availability()
        let scan = try #require(UnconstrainedFeature.scan.request(from: availability))
        #expect(await scan.perform().isSuccess)
        #expect(scan.binding.description == "Unconstrained › Scan")
    }

    @Test("a feature never registered is unavailable, even without constraints; registering makes it available")
    func unregisteredIsUnavailable() throws {
        let availability = ConstraintFixtures.availability()
        #expect(availability.isAvailable(NeverRegisteredFeature.self) == false)
        #expect(NeverRegisteredFeature.scan.request(from: availability) == nil)
        #expect(availability.isRegistered(NeverRegisteredFeature.self) == false)
        #expect(availability.report(for: NeverRegisteredFeature.self).isRegistered == false)
        #expect(availability.isAvailable(UnconstrainedFeature.self) == true)

        try availability.register(NeverRegisteredFeature.self)
        #expect(availability.isAvailable(NeverRegisteredFeature.self) == true)
        #expect(FeatureAvailability().isAvailable(UnconstrainedFeature.self) == false)
    }

    @Test("a subfeature is unavailable while its group is, whatever its own constraints say")
    func parentGates() {
        let toggles = InMemoryUserToggles()
        let availability = ConstraintFixtures.availability(toggles: toggles)
        #expect(availability.isAvailable(BetaGroup.self) == false)
        #expect(availability.isAvailable(BetaChildFeature.self) == false)
        #expect(availability.isAvailable(PlainBetaChildFeature.self) == false)
        #expect(availability.report(for: BetaChildFeature.self).parentAvailable == false)

        toggles.setEnabled(true, for: "beta")
        #expect(availability.isAvailable(BetaGroup.self) == true)
        #expect(availability.isAvailable(BetaChildFeature.self) == true)
        #expect(availability.isAvailable(PlainBetaChildFeature.self) == true)
    }

    @Test("a subfeature's availability is unknown while its group's is")
    func parentUnknown() throws {
        final class Unknown: PurchaseValidator {
            func isPurchased(_ productID: String) -> Bool? { nil }
            func observeChanges(_ handler: @escaping @Sendable (String) -> Void) -> ChangeSubscription {
                ChangeSubscription {}
            }
        }
        let availability = FeatureAvailability(purchases: Unknown())
        try availability.register(PaidGroup.self)
        #expect(availability.isAvailable(PaidGroup.self) == nil)
        #expect(availability.isAvailable(PaidChildFeature.self) == nil)
    }

    @Test("declaring a conditional action lets the dispatcher perform it; an undeclared one is reported")
    func declaredConditionalActions() async throws {
        let harness = ActionTestHarness(expectedDiagnostics: [.undeclaredAction])
        let metadata = FeatureRegistry.shared.metadata(for: UnconstrainedFeature.self)
        #expect(metadata.actions.map(\.name) == ["Scan"])
        #expect(metadata.actions.first?.isPublished == true)
        let undeclared = await harness.perform(
            StaticActionBinding<ProFeature, ScanAction>(),
            input: .noInput,
            presenter: ()
        )
        #expect(!undeclared.isSuccess)
        #expect(harness.diagnostics.kinds == [.undeclaredAction])
    }
}

final class PaidGroup: ConditionalFeature, FeatureGroup {
    static let subfeatures: [any FeatureDefinition.Type] = [PaidChildFeature.self]
    static func constraints(requirements: FeatureConstraintsBuilder) { requirements.purchase("group") }
}

final class PaidChildFeature: Feature {}

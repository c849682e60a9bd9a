import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuateTesting

enum PreparationCounter {
    static let count = Atomic<Int>(0)
}

final class CountedFeature: Feature {
    static let noOp = action(NoOpAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        PreparationCounter.count.add(1, ordering: .relaxed)
        actions.declare(noOp)
    }
}

final class CatalogFeature: Feature {
    static let browse = action(NoOpAction.self)
    static let greet = action(SayHelloAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(browse)
        actions.publish(greet)
    }
}

final class AccountFeature: Feature {}

final class StoreFeatures: FeatureGroup {
    static var subfeatures: [any FeatureDefinition.Type] { [CatalogFeature.self, AccountGroup.self] }
}

final class AccountGroup: FeatureGroup {
    static var subfeatures: [any FeatureDefinition.Type] { [AccountFeature.self] }
}

@Suite("Features")
struct FeatureTests {
    @Test("a registered group gives its subfeatures paths through it")
    func groupPaths() throws {
        let registered = try FeatureRegistry.shared.register(StoreFeatures.self)
        #expect(
            registered.map(\.path.description) == [
                "StoreFeatures", "StoreFeatures/CatalogFeature", "StoreFeatures/AccountGroup",
                "StoreFeatures/AccountGroup/AccountFeature",
            ]
        )
        #expect(AccountFeature.identifier == FeaturePath(["StoreFeatures", "AccountGroup", "AccountFeature"]))
        #expect(AccountFeature.identifier.isWithin(StoreFeatures.identifier))
        #expect(!StoreFeatures.identifier.isWithin(AccountFeature.identifier))
    }

    @Test("declared and published actions are recorded in declaration order")
    func declaredActions() {
        let metadata = FeatureRegistry.shared.metadata(for: CatalogFeature.self)
        #expect(metadata.actions.map(\.name) == ["No Op", "Say Hello"])
        #expect(metadata.actions.map(\.isPublished) == [false, true])
        #expect(metadata.actions[1].inputTypeName == "String")
        #expect(metadata.actions[1].presenterTypeName == "GreetingPresenter")
        #expect(metadata.actions[0].presenterTypeName == "NoPresenter")
        #expect(metadata.actions[0].queueLabel == "actuate.tests.background")
    }

    @Test("a feature is prepared once, lazily, however often its actions run")
    func preparedOnce() async {
        let harness = ActionTestHarness()
        #expect(PreparationCounter.count.load(ordering: .relaxed) == 0)
        for _ in 0..<5 {
            let outcome = await harness.perform(CountedFeature.noOp, input: .noInput, presenter: ())
            #expect(outcome.isSuccess)
        }
        #expect(PreparationCounter.count.load(ordering: .relaxed) == 1)
    }

    @Test("performing an undeclared action is reported and fails without running")
    func undeclaredAction() async throws {
        let harness = ActionTestHarness(expectedDiagnostics: [.undeclaredAction])
        let outcome = await harness.perform(GreetingFeature.undeclared, input: .noInput, presenter: ())
        let error = try #require(outcome.simplifiedOutcome.error as? ActuateError)
        #expect(error == .undeclaredAction(action: "Never Declared", feature: "GreetingFeature"))
        #expect(harness.diagnostics.kinds == [.undeclaredAction])
        #expect(harness.diagnostics.diagnostics.first?.message.contains("actions.declare") == true)
        #expect(harness.recorder.events.isEmpty)
    }

    @Test("a binding describes its feature and action")
    func bindingDescription() {
        #expect(GreetingFeature.sayHello.description == "Greeting › Say Hello")
    }
}

import ActuateTesting
import Dispatch
import Testing

@testable import ActuateCore
@testable import ActuatePlugins

// Small consistency fixes: quickSetup cannot be handed a dispatcher it would ignore, and diagnostics name
// features by their FeaturePath.

private final class UndeclaredRefundAction: Action {
    static var queue: DispatchQueue { .global() }

    static func perform(
        context: ActionContext<NoInput>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        completion.completedSync(.success)
    }
}

private final class RefundsFeature: Feature {
    static let refund = action(UndeclaredRefundAction.self)

    static func prepare(actions: FeatureActionsBuilder) {}
}

@Suite("Setup consistency")
struct SetupConsistencyTests {
    @Test("the configuration holds no dispatcher, so quickSetup cannot be given one it would ignore")
    func configurationHasNoDispatching() {
        let labels = Mirror(reflecting: ActuateConfiguration()).children.compactMap(\.label)
        #expect(!labels.contains("dispatching"))
        #expect(labels.contains("plugins"))
    }

    @Test("a diagnostic names its feature by FeaturePath")
    func diagnosticFeaturePath() async {
        let diagnostics = RecordingDiagnostics()
        let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: diagnostics)
        let outcome = await ActionSession(named: "refunds", dispatcher: dispatcher).perform(RefundsFeature.refund)
        #expect(!outcome.isSuccess)
        let diagnostic = diagnostics.diagnostics.first
        #expect(diagnostic?.kind == .undeclaredAction)
        #expect(diagnostic?.featurePath == RefundsFeature.identifier)
        #expect(diagnostic?.featurePath.components == ["RefundsFeature"])
    }
}

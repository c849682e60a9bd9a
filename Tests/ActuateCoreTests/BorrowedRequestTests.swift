import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuateTesting

/// Keeps a copy of every request it hears, begun and completed, to read after the operations are gone.
private final class KeepingPlugin: ActionDispatchPlugin {
    struct Kept: Sendable {
        var input: String
        var inputDescription: String
        var sessionName: String
        var completed: Bool
    }

    private let kept = Mutex<[Kept]>([])

    var all: [Kept] { kept.withLock { $0 } }

    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        keep(request)
    }

    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        keep(request)
    }

    private func keep<F, A>(_ request: ActionRequest<F, A>) {
        let copy = request
        let kept = Kept(
            input: (copy.input as? String) ?? "",
            inputDescription: copy.inputDescription,
            sessionName: copy.sessionName,
            completed: copy.completionUptimeNanoseconds != nil
        )
        self.kept.withLock { $0.append(kept) }
    }
}

@Suite("The request plugins borrow")
struct BorrowedRequestTests {
    @Test("a plugin that copies the request keeps its input and strings after the operation is gone")
    func copiesOutliveTheOperation() async {
        let plugin = KeepingPlugin()
        let harness = ActionTestHarness(plugins: [plugin])
        // Longer than a small string, so that each input is a counted heap object.
        let inputs = (0..<50).map { "an input long enough to live on the heap, number \($0)" }
        for input in inputs {
            _ = await harness.perform(GreetingFeature.sayHello, input: input, presenter: GreetingPresenter())
        }
        let kept = plugin.all
        #expect(kept.count == 2 * inputs.count)
        #expect(kept.map(\.input) == inputs.flatMap { [$0, $0] })
        #expect(kept.map(\.inputDescription) == inputs.flatMap { [$0.loggingDescription, $0.loggingDescription] })
        #expect(Set(kept.map(\.sessionName)) == [harness.session.name])
        #expect(kept.map(\.completed) == inputs.flatMap { _ in [false, true] })
    }
}

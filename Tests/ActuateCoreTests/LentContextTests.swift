import Dispatch
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuateTesting

/// A dependency whose value lives on the heap, so that a context that borrowed it after its request was gone
/// would read freed memory (the address sanitizer run of `.ci/run` reports it).
private enum LentSuffixKey: DependencyKey {
    static var liveValue: String { "a live suffix long enough to live on the heap" }
}

/// What the body read after completing, and the contexts it kept, to be read once the dispatch is over.
private final class ReadingPresenter: Sendable {
    let reads = Mutex<[String]>([])
    let keptContexts = Mutex<[ActionContext<String>]>([])
}

/// Hears every request, so that the dispatch takes the path that lends the request to plugins.
private final class ListeningPlugin: ActionDispatchPlugin {
    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {}
    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {}
}

/// Completes in place, then reads its context: the input, the session and a dependency, after the operation
/// released its own input. With `keep` as its input's prefix, it also keeps a copy of the context.
private final class CompleteThenReadAction: Action {
    typealias InputType = String
    typealias PresenterType = ReadingPresenter
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(
        context: ActionContext<String>,
        presenter: ReadingPresenter,
        completion: Completion
    ) -> Completion.Status {
        let status = completion.completedSync(.success)
        let suffix = (try? context.dependency(LentSuffixKey.self)) ?? "unset"
        presenter.reads.withLock { $0.append("\(context.input)|\(context.session)|\(suffix)") }
        if context.input.hasPrefix("keep") { presenter.keptContexts.withLock { $0.append(context) } }
        return status
    }
}

private final class LentContextFeature: Feature {
    static let completeThenRead = action(CompleteThenReadAction.self)
    static func prepare(actions: FeatureActionsBuilder) { actions.declare(completeThenRead) }
}

@Suite("The context a body is lent")
struct LentContextTests {
    @Test("a body that completes in place still reads its input, session and dependencies, with and without plugins")
    func readsAfterCompletingInPlace() async {
        for plugins in [[], [ListeningPlugin()]] as [[any ActionDispatchPlugin]] {
            let harness = ActionTestHarness(plugins: plugins)
            harness.dependencies[LentSuffixKey.self] = "a suffix set by the test, long enough for the heap"
            let inputs = (0..<20).map { "an input long enough to live on the heap, number \($0)" }
            for input in inputs {
                let presenter = ReadingPresenter()
                let outcome = await harness.perform(
                    LentContextFeature.completeThenRead,
                    input: input,
                    presenter: presenter
                )
                #expect(outcome.isSuccess)
                #expect(
                    presenter.reads.withLock { $0 }
                        == ["\(input)|\(harness.session.name)|a suffix set by the test, long enough for the heap"]
                )
            }
        }
    }

    @Test("a context the body keeps stays whole after the dispatch and its operation are gone")
    func keptContextOutlivesTheDispatch() async {
        let presenter = ReadingPresenter()
        let harness = ActionTestHarness(plugins: [ListeningPlugin()])
        harness.dependencies[LentSuffixKey.self] = "a kept suffix, long enough to live on the heap"
        let inputs = (0..<20).map { "keep: an input long enough to live on the heap, number \($0)" }
        for input in inputs {
            _ = await harness.perform(LentContextFeature.completeThenRead, input: input, presenter: presenter)
        }
        let kept = presenter.keptContexts.withLock { $0 }
        #expect(kept.map(\.input) == inputs)
        #expect(Set(kept.map(\.session)) == [harness.session.name])
        #expect(
            kept.allSatisfy {
                (try? $0.dependency(LentSuffixKey.self)) == "a kept suffix, long enough to live on the heap"
            }
        )
    }
}

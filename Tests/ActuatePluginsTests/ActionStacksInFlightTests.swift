import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuatePlugins
@testable import ActuateTesting

/// Actions that complete after others began in the same stack: each finds its own entry, or its stack's
/// record of an entry that was evicted while it ran, and an action of a stack that was closed never closes the
/// stack that replaced it.
@Suite("Action stacks, actions in flight")
struct ActionStacksInFlightTests {
    private struct Setup {
        let harness = ActionTestHarness()
        let stacks: ActionStacksPlugin

        init(maxEntriesPerStack: Int = 100) {
            stacks = ActionStacksPlugin(maxEntriesPerStack: maxEntriesPerStack)
            harness.dispatcher.add(plugin: stacks)
        }

        func step(_ label: String, _ ending: Ending = .success) async {
            _ = await harness.session.perform(DraftFeature.step, input: Step(label: label, ending: ending))
        }

        /// Begins a deferred step and returns the status that completes it.
        func begin(_ label: String) -> CompletionRequirement<ActionPerformOutcome>.DeferredStatus {
            let box = DeferredStatusBox()
            harness.session.perform(DraftFeature.deferred, input: DeferredStep(label: label, box: box), completion: nil)
            TestQueues.background.sync {}
            return box.status.withLock { $0 }!
        }

        var stack: ActionStack? {
            stacks.openStack(session: "test", feature: DraftFeature.identifier)
        }
    }

    @Test("an action that completes after later ones gets its outcome on its own entry")
    func completesLater() async throws {
        let setup = Setup()
        let deferred = setup.begin("d")
        await setup.step("s1")
        await setup.step("s2")
        #expect(try #require(setup.stack).entries.map(\.outcome) == [nil, .success, .success])
        deferred.completed(.failure(error: TestError.boom))
        let stack = try #require(setup.stack)
        #expect(stack.entries.map(\.inputDescription) == ["d", "s1", "s2"])
        #expect(stack.entries.first?.outcome == TimelineOutcome(.failure(error: TestError.boom)))
        #expect(stack.entries.dropFirst().allSatisfy { $0.outcome == .success })
    }

    @Test("an action whose entry was evicted while it ran still closes its stack when it ends the feature")
    func evictedThenTerminates() async throws {
        let setup = Setup(maxEntriesPerStack: 2)
        let deferred = setup.begin("d")
        await setup.step("s1")
        await setup.step("s2")
        let open = try #require(setup.stack)
        #expect(open.entries.map(\.inputDescription) == ["s1", "s2"])
        deferred.completed(.successWithFeatureTermination)
        #expect(setup.stack == nil)
        let closed = try #require(setup.stacks.snapshot().closed.first)
        #expect(closed.id == open.id)
        #expect(closed.closeReason == .featureTerminated)
        #expect(closed.entries.map(\.outcome) == [.success, .success])
    }

    @Test("an action of a stack that closed while it ran leaves the stack that replaced it alone")
    func staleStack() async throws {
        let setup = Setup()
        let deferred = setup.begin("d")
        await setup.step("s1", .successTerminating)
        await setup.step("s2")
        let reopened = try #require(setup.stack)
        deferred.completed(.successWithFeatureTermination)
        let after = try #require(setup.stack)
        #expect(after.id == reopened.id)
        #expect(after.entries.map(\.inputDescription) == ["s2"])
        #expect(setup.stacks.snapshot().closed.count == 1)
    }

    @Test("an evicted action of a stack that closed while it ran leaves the stack that replaced it alone")
    func evictedStaleStack() async throws {
        let setup = Setup(maxEntriesPerStack: 1)
        let deferred = setup.begin("d")
        await setup.step("s1", .successTerminating)
        await setup.step("s2")
        let reopened = try #require(setup.stack)
        deferred.completed(.successWithFeatureTermination)
        #expect(setup.stack?.id == reopened.id)
    }

    @Test("stacks of several sessions and features stay apart when their actions alternate")
    func alternating() async throws {
        let setup = Setup()
        let other = ActionSession(named: "other", dispatcher: setup.harness.dispatcher)
        for index in 1...3 {
            await setup.step("a\(index)")
            _ = await other.perform(DraftFeature.step, input: Step(label: "b\(index)"))
            _ = await setup.harness.session.perform(LibraryFeature.step, input: Step(label: "c\(index)"))
        }
        #expect(try #require(setup.stack).entries.map(\.inputDescription) == ["a1", "a2", "a3"])
        let theirs = try #require(setup.stacks.openStack(session: "other", feature: DraftFeature.identifier))
        #expect(theirs.entries.map(\.inputDescription) == ["b1", "b2", "b3"])
        let library = try #require(setup.stacks.openStack(session: "test", feature: LibraryFeature.identifier))
        #expect(library.entries.map(\.inputDescription) == ["c1", "c2", "c3"])
        #expect(library.parentID == setup.stack?.id)
    }
}

/// Where a deferred step leaves its status for the test to complete.
final class DeferredStatusBox: Sendable {
    let status = Mutex<CompletionRequirement<ActionPerformOutcome>.DeferredStatus?>(nil)
}

struct DeferredStep: Loggable {
    var label: String
    var box: DeferredStatusBox

    var loggingDescription: String { label }
}

/// Completes when the test completes the status it leaves in its input's box.
final class DeferredStepAction: Action {
    typealias InputType = DeferredStep
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(
        context: ActionContext<DeferredStep>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        let status = completion.willCompleteAsync()
        context.input.box.status.withLock { $0 = status }
        return status
    }
}

final class DraftFeature: Feature {
    static let step = action(StepAction.self)
    static let deferred = action(DeferredStepAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(step)
        actions.declare(deferred)
    }
}

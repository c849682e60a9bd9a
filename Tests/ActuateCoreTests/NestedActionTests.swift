import Dispatch
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuateTesting

/// Chains of actions where each body performs the next one, across queues, in every form: the regression
/// tests for the cross-queue deadlock of nested async actions.
@Suite("Nested actions")
struct NestedActionTests {
    /// How long a chain may take in real time before the test gives up on it. Only a broken build waits this
    /// long: a deadlocked chain fails the test instead of hanging the run.
    static let safetyLimit: Duration = .seconds(30)

    static let chains: [ChainCase] = [
        ChainCase("3 levels, 2 queues, awaited async", [.q, .r, .q], .awaited),
        ChainCase("4 levels, 2 queues, awaited async", [.q, .r, .q, .r], .awaited),
        ChainCase("3 levels, 3 queues, awaited async", [.q, .r, .s], .awaited),
        ChainCase("4 levels, 3 queues, awaited async", [.q, .r, .s, .q], .awaited),
        ChainCase("3 levels, 2 queues, async with callbacks", [.q, .r, .q], .asyncWithCallback),
        ChainCase("4 levels, 2 queues, async with callbacks", [.q, .r, .q, .r], .asyncWithCallback),
        ChainCase("3 levels, 3 queues, async with callbacks", [.q, .r, .s], .asyncWithCallback),
        ChainCase("4 levels, 3 queues, async with callbacks", [.q, .r, .s, .q], .asyncWithCallback),
        ChainCase("3 levels, 2 queues, callback actions", [.q, .r, .q], .callback),
        ChainCase("4 levels, 2 queues, callback actions", [.q, .r, .q, .r], .callback),
        ChainCase("3 levels, 3 queues, callback actions", [.q, .r, .s], .callback),
        ChainCase("4 levels, 3 queues, callback actions", [.q, .r, .s, .q], .callback),
        ChainCase(
            "3 levels, 2 queues, async through a callback action",
            [.q, .r, .q],
            [.awaited, .callback, .awaited]
        ),
        ChainCase(
            "4 levels, 3 queues, every form mixed",
            [.q, .r, .s, .q],
            [.awaited, .callback, .asyncWithCallback, .awaited]
        ),
        ChainCase(
            "4 levels, 2 queues, callback action at the root",
            [.q, .r, .q, .r],
            [.callback, .awaited, .callback, .asyncWithCallback]
        ),
    ]

    @Test("a chain of nested actions across queues completes, innermost first", arguments: chains)
    func chainCompletes(_ chain: ChainCase) async {
        let harness = ActionTestHarness(realTimeLimit: Self.safetyLimit)
        let trace = ChainTrace()
        let pending = harness.start(
            chain.root,
            input: chain.input(session: harness.session, trace: trace),
            presenter: ()
        )
        let outcome = await pending.outcome(within: Self.safetyLimit)
        #expect(outcome?.isSuccess == true, "the chain deadlocked or failed")
        #expect(trace.events == chain.expectedTrace)
    }

    @Test("the completion watchdog stays silent after nested chains", arguments: chains)
    func watchdogSilent(_ chain: ChainCase) async {
        let harness = ActionTestHarness(completionTimeout: .seconds(1), realTimeLimit: Self.safetyLimit)
        let pending = harness.start(
            chain.root,
            input: chain.input(session: harness.session, trace: ChainTrace()),
            presenter: ()
        )
        _ = await pending.outcome(within: Self.safetyLimit)
        harness.scheduler.advance(by: .seconds(60))
        #expect(harness.diagnostics.diagnostics.isEmpty)
        #expect(harness.dispatcher.pendingAsyncCompletions == 0)
        #expect(harness.recorder.completedActionNames.count == chain.queues.count + 1)
    }

    @Test("nested siblings on one queue still take turns")
    func siblingsTakeTurns() async {
        let harness = ActionTestHarness(realTimeLimit: Self.safetyLimit)
        let probe = Probe()
        let pending = harness.start(
            NestedFeature.siblings,
            input: SiblingsInput(session: harness.session, probe: probe),
            presenter: ()
        )
        let gate = DispatchQueueMarker.marker(for: SiblingQueueR.queue).gate
        #expect(await eventually { probe.events.contains("waiting first") })
        #expect(await eventually { gate.waitingCount == 1 })
        #expect(!probe.events.contains("second start on sibling-r"))
        probe.release("first")
        let outcome = await pending.outcome(within: Self.safetyLimit)
        #expect(outcome?.isSuccess == true)
        let events = probe.events.filter { $0.contains(" start on ") || $0.hasSuffix(" end") }
        #expect(events == ["first start on sibling-r", "first end", "second start on sibling-r", "second end"])
    }

    @Test("unrelated bodies that would wait for each other in a circle both complete")
    func circleOfWaits() async {
        let harness = ActionTestHarness(completionTimeout: .seconds(1), realTimeLimit: Self.safetyLimit)
        let probe = Probe()
        let first = harness.start(
            AsyncChainFeature.circleA,
            input: CircleInput(name: "a", session: harness.session, probe: probe),
            presenter: ()
        )
        let second = harness.start(
            AsyncChainFeature.circleB,
            input: CircleInput(name: "b", session: harness.session, probe: probe),
            presenter: ()
        )
        // Both hold their own queue, then each awaits an action on the other's queue.
        #expect(await eventually { probe.events.contains("waiting a") && probe.events.contains("waiting b") })
        probe.release("a")
        probe.release("b")
        #expect(await first.outcome(within: Self.safetyLimit)?.simplifiedOutcome.isSuccess == true)
        #expect(await second.outcome(within: Self.safetyLimit)?.simplifiedOutcome.isSuccess == true)
        harness.scheduler.advance(by: .seconds(60))
        #expect(harness.diagnostics.diagnostics.isEmpty)
    }

    @Test("work a body leaves running after it completes no longer counts as nested")
    func outlivedHoldIsNotBorrowed() async {
        let harness = ActionTestHarness(realTimeLimit: Self.safetyLimit)
        let probe = Probe()
        let leftover = Leftover()
        let parent = await harness.session.perform(
            NestedFeature.leavesTask,
            input: LeftoverInput(session: harness.session, probe: probe, leftover: leftover)
        )
        #expect(parent.isSuccess)
        // An unrelated caller now holds queue Q; the task the finished body left behind must wait for it.
        let holder = harness.start(
            AsyncChainFeature.onLeftoverQueue,
            input: AsyncScript("holder", [.waitFor("holder")], probe: probe),
            presenter: ()
        )
        #expect(await eventually { probe.events.contains("waiting holder") })
        leftover.go()
        let gate = DispatchQueueMarker.marker(for: LeftoverQueue.queue).gate
        #expect(await eventually { gate.waitingCount == 1 })
        #expect(!probe.events.contains("leftover start on leftover-q"))
        probe.release("holder")
        _ = await holder.outcome(within: Self.safetyLimit)
        #expect(await leftover.outcome(within: Self.safetyLimit) == true)
        #expect(probe.events.suffix(2) == ["leftover start on leftover-q", "leftover end"])
    }
}

// MARK: - Fixtures

/// The three queues the chains run on, private to this suite.
enum ChainQueue: String, Sendable, CustomStringConvertible {
    case q, r, s

    var queue: DispatchQueue {
        switch self {
        case .q: ChainQueueQ.queue
        case .r: ChainQueueR.queue
        case .s: ChainQueueS.queue
        }
    }

    var description: String { rawValue.uppercased() }
}

enum ChainQueueQ: ScriptQueue { static let queue = TestQueues.tagged("chain-q") }
enum ChainQueueR: ScriptQueue { static let queue = TestQueues.tagged("chain-r") }
enum ChainQueueS: ScriptQueue { static let queue = TestQueues.tagged("chain-s") }
enum SiblingQueueQ: ScriptQueue { static let queue = TestQueues.tagged("sibling-q") }
enum SiblingQueueR: ScriptQueue { static let queue = TestQueues.tagged("sibling-r") }
enum LeftoverQueue: ScriptQueue { static let queue = TestQueues.tagged("leftover-q") }
enum CircleQueueA: ScriptQueue { static let queue = TestQueues.tagged("circle-a") }
enum CircleQueueB: ScriptQueue { static let queue = TestQueues.tagged("circle-b") }

/// How a link of a chain is performed by its parent.
enum ChainForm: Sendable, CustomStringConvertible {
    /// An ``AsyncAction``, awaited with `await session.perform(...)` (or with a callback by a callback parent).
    case awaited
    /// An ``AsyncAction``, performed with the callback form of `perform`.
    case asyncWithCallback
    /// A callback ``Action`` that completes when its own nested link has.
    case callback

    var description: String {
        switch self {
        case .awaited: "awaited"
        case .asyncWithCallback: "async-callback"
        case .callback: "callback"
        }
    }
}

/// One parameterized chain: the queue of each level and the form each level is performed in.
struct ChainCase: Sendable, CustomTestStringConvertible {
    let name: String
    let queues: [ChainQueue]
    let forms: [ChainForm]

    init(_ name: String, _ queues: [ChainQueue], _ form: ChainForm) {
        self.init(name, queues, Array(repeating: form, count: queues.count))
    }

    init(_ name: String, _ queues: [ChainQueue], _ forms: [ChainForm]) {
        self.name = name
        self.queues = queues
        self.forms = forms
    }

    var testDescription: String { name }

    /// The root's binding.
    var root: StaticActionBinding<NestedFeature, ChainEntryAction> { NestedFeature.entry }

    func input(session: ActionSession, trace: ChainTrace) -> ChainInput {
        ChainInput(depth: 0, links: Array(zip(queues, forms)), session: session, trace: trace)
    }

    /// Every level starts on its own queue before the next begins, and ends after the next has ended.
    var expectedTrace: [String] {
        let starts = queues.enumerated().map { "\($0.offset) start on chain-\($0.element.rawValue)" }
        let ends = queues.indices.reversed().map { "\($0) end" }
        return starts + ends
    }
}

/// What each level of a chain saw, in order.
final class ChainTrace: Sendable {
    private let recorded = Mutex<[String]>([])

    func log(_ event: String) { recorded.withLock { $0.append(event) } }

    var events: [String] { recorded.withLock { $0 } }
}

/// The rest of a chain, handed from each level to the next.
struct ChainInput: Loggable {
    let depth: Int
    let links: [(queue: ChainQueue, form: ChainForm)]
    let session: ActionSession
    let trace: ChainTrace

    var loggingDescription: String { "level \(depth) of \(depth + links.count)" }

    /// The input of the next level.
    var next: ChainInput {
        ChainInput(depth: depth + 1, links: Array(links.dropFirst()), session: session, trace: trace)
    }

    /// Performs the first link with a callback.
    func performFirst(completion: @escaping @Sendable (ActionOutcome) -> Void) {
        let (queue, form) = links[0]
        switch (queue, form) {
        case (.q, .callback): session.perform(NestedFeature.callbackQ, input: self, completion: completion)
        case (.r, .callback): session.perform(NestedFeature.callbackR, input: self, completion: completion)
        case (.s, .callback): session.perform(NestedFeature.callbackS, input: self, completion: completion)
        case (.q, _): session.perform(NestedFeature.asyncQ, input: self, completion: completion)
        case (.r, _): session.perform(NestedFeature.asyncR, input: self, completion: completion)
        case (.s, _): session.perform(NestedFeature.asyncS, input: self, completion: completion)
        }
    }

    /// Performs the first link from an async body, in the link's form.
    func performFirst() async -> ActionOutcome {
        switch links[0] {
        case (.q, .awaited): await session.perform(NestedFeature.asyncQ, input: self)
        case (.r, .awaited): await session.perform(NestedFeature.asyncR, input: self)
        case (.s, .awaited): await session.perform(NestedFeature.asyncS, input: self)
        default: await withCheckedContinuation { continuation in performFirst { continuation.resume(returning: $0) } }
        }
    }
}

// Safe: `links` holds only Sendable values; the tuple array is immutable.
extension ChainInput: @unchecked Sendable {}

/// Starts a chain: performs its first level and completes with it.
final class ChainEntryAction: Action {
    typealias InputType = ChainInput
    static var queue: DispatchQueue { TestQueues.other }

    static func perform(
        context: ActionContext<ChainInput>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        let status = completion.willCompleteAsync()
        context.input.performFirst { status.completed($0.isSuccess ? .success : .failure(error: TestError.boom)) }
        return status
    }
}

/// A level of a chain as an async action on queue `Q`.
final class AsyncChainAction<Q: ScriptQueue>: AsyncAction {
    typealias InputType = ChainInput
    static var queue: DispatchQueue { Q.queue }

    static func perform(context: ActionContext<ChainInput>, presenter: Void) async throws -> ActionPerformOutcome {
        let input = context.input
        input.trace.log("\(input.depth) start on \(TestQueues.current ?? "none")")
        let rest = input.next
        if !rest.links.isEmpty, await !rest.performFirst().isSuccess { throw TestError.boom }
        input.trace.log("\(input.depth) end")
        return .success
    }
}

/// A level of a chain as a callback action on queue `Q`.
final class CallbackChainAction<Q: ScriptQueue>: Action {
    typealias InputType = ChainInput
    static var queue: DispatchQueue { Q.queue }

    static func perform(
        context: ActionContext<ChainInput>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        let input = context.input
        input.trace.log("\(input.depth) start on \(TestQueues.current ?? "none")")
        let rest = input.next
        guard !rest.links.isEmpty else {
            input.trace.log("\(input.depth) end")
            return completion.completedSync(.success)
        }
        let status = completion.willCompleteAsync()
        rest.performFirst { outcome in
            input.trace.log("\(input.depth) end")
            status.completed(outcome.isSuccess ? .success : .failure(error: TestError.boom))
        }
        return status
    }
}

struct SiblingsInput: Loggable {
    let session: ActionSession
    let probe: Probe
    var loggingDescription: String { "siblings" }
}

/// On queue Q, performs two async actions on queue R at once and awaits both.
final class SiblingsAction: AsyncAction {
    typealias InputType = SiblingsInput
    static var queue: DispatchQueue { SiblingQueueQ.queue }

    static func perform(context: ActionContext<SiblingsInput>, presenter: Void) async throws -> ActionPerformOutcome {
        let session = context.input.session
        let probe = context.input.probe
        async let first = session.perform(
            AsyncChainFeature.onSiblingQueue,
            input: AsyncScript("first", [.waitFor("first")], probe: probe)
        )
        // Let the first sibling take R's gate before the second asks for it.
        while !probe.events.contains("waiting first") { await Task.yield() }
        async let second = session.perform(
            AsyncChainFeature.onSiblingQueue,
            input: AsyncScript("second", [], probe: probe)
        )
        let outcomes = await [first, second]
        return outcomes.allSatisfy(\.isSuccess) ? .success : .failure(error: TestError.boom)
    }
}

/// Holds the task a finished body left behind, and lets the test start it and read its outcome.
final class Leftover: Sendable {
    private let state = Mutex<(go: CheckedContinuation<Void, Never>?, started: Bool)>((nil, false))
    private let result = PendingFlag()

    /// Waits, inside the left-behind task, until the test says go.
    func waitForGo() async {
        await withCheckedContinuation { continuation in
            let goNow = state.withLock { state -> Bool in
                if state.started { return true }
                state.go = continuation
                return false
            }
            if goNow { continuation.resume() }
        }
    }

    func go() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.started = true
            defer { state.go = nil }
            return state.go
        }
        continuation?.resume()
    }

    func finish(_ success: Bool) { result.set(success) }

    func outcome(within limit: Duration) async -> Bool? { await result.value(within: limit) }
}

/// A Boolean set once, awaited with a real-time safety limit.
final class PendingFlag: Sendable {
    private let pending = Mutex<(value: Bool?, waiters: [CheckedContinuation<Bool?, Never>])>((nil, []))

    func set(_ value: Bool) {
        let waiters = pending.withLock { state -> [CheckedContinuation<Bool?, Never>] in
            state.value = value
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    func value(within limit: Duration) async -> Bool? {
        await withCheckedContinuation { continuation in
            let ready = pending.withLock { state -> Bool? in
                if let value = state.value { return value }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { return continuation.resume(returning: ready) }
            DispatchQueue.global().asyncAfter(deadline: .now() + limit.timeInterval) { [self] in
                let waiters = pending.withLock { state -> [CheckedContinuation<Bool?, Never>] in
                    defer { state.waiters = [] }
                    return state.waiters
                }
                for waiter in waiters { waiter.resume(returning: nil) }
            }
        }
    }
}

struct LeftoverInput: Loggable {
    let session: ActionSession
    let probe: Probe
    let leftover: Leftover
    var loggingDescription: String { "leftover" }
}

/// On queue Q, starts a task that performs another action on Q later, and completes without waiting for it.
final class LeavesTaskAction: AsyncAction {
    typealias InputType = LeftoverInput
    static var queue: DispatchQueue { LeftoverQueue.queue }

    static func perform(context: ActionContext<LeftoverInput>, presenter: Void) async throws -> ActionPerformOutcome {
        let input = context.input
        Task {
            await input.leftover.waitForGo()
            let outcome = await input.session.perform(
                AsyncChainFeature.onLeftoverQueue,
                input: AsyncScript("leftover", [], probe: input.probe)
            )
            input.leftover.finish(outcome.isSuccess)
        }
        return .success
    }
}

final class AsyncChainFeature: Feature {
    static let onLeftoverQueue = action(ScriptedAsyncAction<LeftoverQueue>.self)
    static let onSiblingQueue = action(ScriptedAsyncAction<SiblingQueueR>.self)
    static let circleA = action(CircleAction<CircleQueueA, CircleQueueB>.self)
    static let circleB = action(CircleAction<CircleQueueB, CircleQueueA>.self)
    static let scriptedOnA = action(ScriptedAsyncAction<CircleQueueA>.self)
    static let scriptedOnB = action(ScriptedAsyncAction<CircleQueueB>.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(onLeftoverQueue)
        actions.declare(onSiblingQueue)
        actions.declare(circleA)
        actions.declare(circleB)
        actions.declare(scriptedOnA)
        actions.declare(scriptedOnB)
    }
}

struct CircleInput: Loggable {
    let name: String
    let session: ActionSession
    let probe: Probe
    var loggingDescription: String { name }
}

/// On queue `Here`, waits for the test's signal, then awaits a nested action on queue `There`.
final class CircleAction<Here: ScriptQueue, There: ScriptQueue>: AsyncAction {
    typealias InputType = CircleInput
    static var queue: DispatchQueue { Here.queue }

    static func perform(context: ActionContext<CircleInput>, presenter: Void) async throws -> ActionPerformOutcome {
        let input = context.input
        await input.probe.wait(input.name)
        let nested = AsyncScript("\(input.name).nested", [], probe: input.probe)
        let outcome =
            There.self == CircleQueueA.self
            ? await input.session.perform(AsyncChainFeature.scriptedOnA, input: nested)
            : await input.session.perform(AsyncChainFeature.scriptedOnB, input: nested)
        return outcome.isSuccess ? .success : .failure(error: TestError.boom)
    }
}

final class NestedFeature: Feature {
    static let entry = action(ChainEntryAction.self)
    static let asyncQ = action(AsyncChainAction<ChainQueueQ>.self)
    static let asyncR = action(AsyncChainAction<ChainQueueR>.self)
    static let asyncS = action(AsyncChainAction<ChainQueueS>.self)
    static let callbackQ = action(CallbackChainAction<ChainQueueQ>.self)
    static let callbackR = action(CallbackChainAction<ChainQueueR>.self)
    static let callbackS = action(CallbackChainAction<ChainQueueS>.self)
    static let siblings = action(SiblingsAction.self)
    static let leavesTask = action(LeavesTaskAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(entry)
        actions.declare(asyncQ)
        actions.declare(asyncR)
        actions.declare(asyncS)
        actions.declare(callbackQ)
        actions.declare(callbackR)
        actions.declare(callbackS)
        actions.declare(siblings)
        actions.declare(leavesTask)
    }
}

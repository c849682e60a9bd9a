import ActuateTestSupport
import ActuateTesting
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuatePlugins

// Stress tests for the dispatch path, written to give the Thread Sanitizer (`swift test --sanitize=thread`)
// races to find: many threads perform actions of every kind on many sessions and queues, while plugins are
// added and removed. In a normal build each test takes a few hundred milliseconds. A wait fails only when the
// actions stop making progress, not on a fixed real-time limit, which a parallel test run crowding the pool trips.

@Suite("Dispatch under stress")
struct DispatchStressTests {
    /// Threads that perform actions at once.
    private static let threads = 8
    /// Actions each thread performs.
    private static let actionsPerThread = 150

    @Test("many threads perform sync, deferred, async and nested actions on eight sessions and four queues")
    func manyThreadsManySessionsManyQueues() async throws {
        let scheduler = TestScheduler()
        let diagnostics = RecordingDiagnostics()
        let dispatcher = ActionDispatcher(scheduler: scheduler, diagnostics: diagnostics)
        let recorder = RecordingPlugin()
        let timeline = Timeline(maxEntries: 64)
        let stacks = ActionStacksPlugin()
        let analytics = RecordingAnalyticsProvider()
        dispatcher.add(plugin: recorder)
        dispatcher.add(plugin: timeline)
        dispatcher.add(plugin: stacks)
        dispatcher.add(plugin: AnalyticsPlugin(provider: analytics))
        let sessions = (0..<8).map { ActionSession(named: "stress-\($0)", dispatcher: dispatcher) }
        let total = Self.threads * Self.actionsPerThread
        let tally = CompletionTally(count: total)
        let monitor = StressMonitor()

        let finished = await onOwnThread { () -> Bool in
            let group = DispatchGroup()
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for index in 0..<Self.actionsPerThread {
                    let number = thread * Self.actionsPerThread + index
                    let session = sessions[(thread + index) % sessions.count]
                    group.enter()
                    let input = StressInput(session: session, monitor: monitor, number: number)
                    StressPerformer.all[number % StressPerformer.all.count](input) { succeeded in
                        tally.record(number, succeeded: succeeded)
                        group.leave()
                    }
                }
            }
            return waitWhileProgressing(group) { tally.completions }
        }

        try #require(finished, "actions stopped completing (a hang): \(tally.missing.prefix(10))")
        #expect(tally.missing.isEmpty)
        #expect(tally.calledMoreThanOnce.isEmpty)
        // Every seventh request of a sync action fails on purpose; everything else succeeds.
        #expect(tally.failures == StressPerformer.expectedFailures(total: total))
        #expect(diagnostics.diagnostics.isEmpty, "\(diagnostics.diagnostics)")
        #expect(dispatcher.pendingAsyncCompletions == 0)
        #expect(monitor.overlaps == 0, "bodies sharing a serial queue ran at the same time")

        // Each nested action performs one more; every request began once and completed once.
        let nested = (0..<total).filter { StressPerformer.isNesting($0) }.count
        let events = recorder.events
        var began: [UInt64: Int] = [:]
        var completed: [UInt64: Int] = [:]
        for event in events {
            switch event {
            case .began(let request): began[request.uniqueID, default: 0] += 1
            case .completed(let request, _, _): completed[request.uniqueID, default: 0] += 1
            }
        }
        #expect(began.count == total + nested)
        #expect(began == completed)
        #expect(began.values.allSatisfy { $0 == 1 })

        let entries = timeline.snapshot()
        #expect(entries.count == 64)
        #expect(entries.allSatisfy { $0.outcome != nil })
        let tracked = (0..<total).filter { StressPerformer.isTracked($0) }.count
        #expect(analytics.beganEvents.count == tracked)
        #expect(analytics.endedEvents.count == tracked)
        // Each session has one open stack of the feature, which heard every action performed in the session.
        var performedPerSession: [String: Int] = [:]
        for thread in 0..<Self.threads {
            for index in 0..<Self.actionsPerThread {
                let number = thread * Self.actionsPerThread + index
                let name = sessions[(thread + index) % sessions.count].name
                performedPerSession[name, default: 0] += StressPerformer.isNesting(number) ? 2 : 1
            }
        }
        for session in sessions {
            let stack = try #require(stacks.openStack(session: session.name, feature: StressFeature.identifier))
            #expect(stack.entries.count + stack.evictedEntryCount == performedPerSession[session.name])
        }
    }

    @Test("plugins added and removed during dispatch still hear each action's begin and completion as a pair")
    func pluginsAddedAndRemovedDuringDispatch() async throws {
        let diagnostics = RecordingDiagnostics()
        let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: diagnostics)
        let permanent = PairCheckingPlugin()
        dispatcher.add(plugin: permanent)
        // A plugin that adds and removes another plugin from inside its own callbacks: a dispatcher holding its
        // lock while it calls plugins would deadlock here.
        let reentrant = ReentrantPlugin(dispatcher: dispatcher)
        dispatcher.add(plugin: reentrant)
        let session = ActionSession(named: "churn", dispatcher: dispatcher)
        let performers = Self.threads - 2
        let total = performers * Self.actionsPerThread
        let tally = CompletionTally(count: total)
        let monitor = StressMonitor()
        let churned = Mutex<[PairCheckingPlugin]>([])

        let finished = await onOwnThread { () -> Bool in
            let group = DispatchGroup()
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                guard thread < performers else {
                    // Two threads keep adding and removing plugins while the others perform.
                    for _ in 0..<Self.actionsPerThread {
                        let plugin = PairCheckingPlugin()
                        dispatcher.add(plugin: plugin)
                        churned.withLock { $0.append(plugin) }
                        dispatcher.remove(plugin: plugin)
                    }
                    return
                }
                for index in 0..<Self.actionsPerThread {
                    let number = thread * Self.actionsPerThread + index
                    group.enter()
                    let input = StressInput(session: session, monitor: monitor, number: number)
                    StressPerformer.all[number % StressPerformer.all.count](input) { succeeded in
                        tally.record(number, succeeded: succeeded)
                        group.leave()
                    }
                }
            }
            return waitWhileProgressing(group) { tally.completions }
        }

        try #require(finished, "actions stopped completing (a hang): \(tally.missing.prefix(10))")
        #expect(tally.missing.isEmpty)
        #expect(tally.calledMoreThanOnce.isEmpty)
        #expect(diagnostics.diagnostics.isEmpty, "\(diagnostics.diagnostics)")
        #expect(monitor.overlaps == 0, "bodies sharing a serial queue ran at the same time")
        let nested = (0..<total).filter { StressPerformer.isNesting($0) }.count
        #expect(permanent.report == .init(began: total + nested, completed: total + nested, unpaired: 0, open: 0))
        let churnedPlugins = churned.withLock { $0 }
        #expect(churnedPlugins.count == 2 * Self.actionsPerThread)
        for plugin in churnedPlugins {
            let report = plugin.report
            #expect(report.open == 0 && report.unpaired == 0, "a removed plugin heard half a pair: \(report)")
        }
        #expect(reentrant.inner.report.open == 0 && reentrant.inner.report.unpaired == 0)
        #expect(reentrant.callbacks == 2 * (total + nested))
        // Only the two plugins that were never removed are left.
        #expect(dispatcher.installedPlugins.count == 2)
    }
}

/// Counts the caller completions of numbered requests.
private final class CompletionTally: Sendable {
    private struct State {
        var calls: [Int]
        var failures = 0
    }

    private let state: Mutex<State>

    init(count: Int) {
        state = Mutex(State(calls: Array(repeating: 0, count: count)))
    }

    func record(_ number: Int, succeeded: Bool) {
        state.withLock { state in
            state.calls[number] += 1
            if !succeeded { state.failures += 1 }
        }
    }

    /// How many caller completions have run so far.
    var completions: Int { state.withLock { state in state.calls.reduce(0, +) } }
    /// The requests whose completion never ran.
    var missing: [Int] { state.withLock { state in state.calls.indices.filter { state.calls[$0] == 0 } } }
    /// The requests whose completion ran more than once.
    var calledMoreThanOnce: [Int] { state.withLock { state in state.calls.indices.filter { state.calls[$0] > 1 } } }
    /// How many completions reported a failure.
    var failures: Int { state.withLock { $0.failures } }
}

/// A plugin that checks each request's begin and completion arrive as a pair.
private final class PairCheckingPlugin: ActionDispatchPlugin {
    struct Report: Equatable, CustomStringConvertible {
        var began = 0
        var completed = 0
        /// Completions of requests this plugin never heard begin.
        var unpaired = 0
        /// Requests that began and never completed.
        var open = 0

        var description: String { "began \(began), completed \(completed), unpaired \(unpaired), open \(open)" }
    }

    private struct State {
        var report = Report()
        /// Begins not yet matched by a completion, per request. A plugin added twice hears everything twice.
        var inFlight: [UInt64: Int] = [:]
    }

    private let state = Mutex(State())

    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        state.withLock { state in
            state.report.began += 1
            state.inFlight[request.uniqueID, default: 0] += 1
        }
    }

    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        state.withLock { state in
            state.report.completed += 1
            guard let open = state.inFlight[request.uniqueID] else {
                state.report.unpaired += 1
                return
            }
            state.inFlight[request.uniqueID] = open == 1 ? nil : open - 1
        }
    }

    var report: Report {
        state.withLock { state in
            var report = state.report
            report.open = state.inFlight.values.reduce(0, +)
            return report
        }
    }
}

/// A plugin that adds a plugin when an action begins and removes it when the action completes.
private final class ReentrantPlugin: ActionDispatchPlugin {
    let inner = PairCheckingPlugin()
    /// Unowned: the dispatcher holds this plugin, so a strong reference would be a cycle that never frees either.
    private unowned let dispatcher: ActionDispatcher
    private let count = Atomic<Int>(0)

    init(dispatcher: ActionDispatcher) {
        self.dispatcher = dispatcher
    }

    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        count.add(1, ordering: .relaxed)
        dispatcher.add(plugin: inner)
        _ = dispatcher.installedPlugins
    }

    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        count.add(1, ordering: .relaxed)
        dispatcher.remove(plugin: inner)
    }

    /// How many callbacks it received.
    var callbacks: Int { count.load(ordering: .relaxed) }
}

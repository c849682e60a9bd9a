import Actuate
import ActuateReporting
import Dispatch
import Foundation
import Synchronization

/// Dispatchers set up the way each dispatch benchmark needs them.
enum BenchmarkDispatchers {
    static func session(
        _ observers: [any ActionDispatchPlugin],
        loggerFactory: (any ActionLoggerFactory)? = nil
    )
        -> ActionSession
    {
        let dispatcher = ActionDispatcher(scheduler: SystemScheduler.shared, loggerFactory: loggerFactory)
        for observer in observers { dispatcher.add(plugin: observer) }
        return ActionSession(named: "bench", dispatcher: dispatcher)
    }

    /// Every core plugin: timeline, action stacks, focus logging and analytics with a no-op provider.
    static func corePlugins() -> (observers: [any ActionDispatchPlugin], logging: FocusLogging) {
        let logging = FocusLogging(backend: NoOpLogBackend())
        return (
            [Timeline(maxEntries: 1_000), ActionStacksPlugin(), AnalyticsPlugin(provider: NoOpAnalyticsProvider())],
            logging
        )
    }

    /// A reporting plugin over an in-memory store.
    static func reportingPlugin() -> ReportingPlugin {
        let reporter = Reporter(
            store: MemoryEventStore(),
            delivery: nil,
            scheduler: SystemScheduler.shared,
            identity: Identity(storage: MemoryIdentityStorage())
        )
        return ReportingPlugin(reporter: reporter)
    }
}

/// Keeps results alive so that the optimizer cannot drop the measured work. Padded on both sides, so that sinks
/// counting on different threads, as the scaling baseline's lanes do, share no cache line.
final class BenchmarkSink: Sendable {
    private let paddingBefore = SinkPadding()
    private let count = Atomic<Int>(0)
    private let paddingAfter = SinkPadding()

    @inline(never)
    func take(_ outcome: ActionOutcome) {
        if outcome.isSuccess { count.add(1, ordering: .relaxed) }
    }

    var total: Int { count.load(ordering: .relaxed) }
}

/// 64 bytes that nothing writes, to keep a sink's counter off its neighbours' cache lines.
private struct SinkPadding: Sendable {
    let bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
}

extension Benchmark {
    /// A synchronous NoInput, NoPresenter action performed from its own queue, against a direct closure call
    /// and against a Flint-style dispatcher, all interleaved in the same rounds.
    static let dispatchSync = Benchmark(
        name: "dispatch.sync",
        summary: "perform a trivial synchronous action from its own queue, ns per operation"
    ) { context in
        let iterations = context.size(1_000_000, quick: 20_000)
        let flintIterations = iterations / 10
        let sink = BenchmarkSink()
        let work: @Sendable () -> ActionOutcome = { .success }
        let completion: @Sendable (ActionOutcome) -> Void = { sink.take($0) }
        let core = BenchmarkDispatchers.corePlugins()
        // Each case with the target for its median in ns, if it has one.
        let cases: [(String, ActionSession, Double?)] = [
            ("no plugins", BenchmarkDispatchers.session([]), 150),
            ("timeline", BenchmarkDispatchers.session([Timeline(maxEntries: 1_000)]), 300),
            ("every core plugin", BenchmarkDispatchers.session(core.observers, loggerFactory: core.logging), nil),
            (
                "every core plugin + reporting",
                BenchmarkDispatchers.session(
                    core.observers + [BenchmarkDispatchers.reportingPlugin()],
                    loggerFactory: core.logging
                ),
                600
            ),
        ]
        let flintPlain = FlintStyleDispatcher(actionQueue: BenchmarkQueues.action)
        let flintTimeline = FlintStyleDispatcher(actionQueue: BenchmarkQueues.action)
        flintTimeline.add(observer: FlintStyleTimeline(maxEntries: 1_000))
        let flintSuccess: @Sendable (Bool) -> Void = {
            sink.take($0 ? .success : .failure(error: BenchmarkFailure("x")))
        }
        func flintRound(_ dispatcher: FlintStyleDispatcher) -> Double {
            FlintStyleRound.nanosecondsPerDispatch(dispatcher, iterations: flintIterations, context: context) {
                dispatcher.perform(
                    actionName: "Trivial Sync",
                    body: { $0.complete(success: true) },
                    completion: flintSuccess
                )
            }
        }
        var variants: [() -> Double] = [
            {
                nanosecondsPerOperation(iterations, context: context, on: BenchmarkQueues.action) {
                    for _ in 0..<iterations { completion(work()) }
                }
            }
        ]
        for (_, session, _) in cases {
            variants.append {
                nanosecondsPerOperation(iterations, context: context, on: BenchmarkQueues.action) {
                    for _ in 0..<iterations { session.perform(BenchmarkFeature.trivial, completion: completion) }
                }
            }
        }
        variants.append { flintRound(flintPlain) }
        variants.append { flintRound(flintTimeline) }
        let samples = context.interleavedRounds(variants)
        let baseline = Measurement(label: "direct closure call", unit: "ns/op", samples: samples[0])
        var figures = cases.enumerated().map { index, entry in
            let figure = Figure(
                name: "dispatch.sync, \(entry.0)",
                subject: Measurement(
                    label: "ActionSession.perform, \(entry.0)",
                    unit: "ns/op",
                    samples: samples[index + 1]
                ),
                baseline: baseline,
                higherIsBetter: false,
                note: "performed inline on the action's own queue; baseline calls a closure doing the same work"
            )
            return entry.2.map { figure.target(.median, $0) } ?? figure
        }
        // With the timeline, the target is 10 times faster than Flint-style: a ratio of at most 0.1.
        let flint = [
            ("no plugins", samples[cases.count + 1], 1, nil), ("timeline", samples[cases.count + 2], 2, 0.1),
        ]
        for (label, flintSamples, caseIndex, target) in flint {
            let figure =
                Figure(
                    name: "dispatch.sync against Flint-style, \(label)",
                    subject: Measurement(
                        label: "ActionSession.perform, \(label)",
                        unit: "ns/op",
                        samples: samples[caseIndex]
                    ),
                    baseline: Measurement(
                        label: "Flint-style dispatch, \(label)",
                        unit: "ns/op",
                        samples: flintSamples
                    ),
                    higherIsBetter: false,
                    note:
                        "Flint-style: a queue and specific key per dispatch, locked observer list told asynchronously "
                        + "(drained in the round), locked completion flag; \(flintIterations) dispatches a round, "
                        + "after a warm-up batch, timed in \(FlintStyleRound.chunks) chunks of which the median counts"
                )
            figures.append(target.map { figure.target(.ratio, $0) } ?? figure)
        }
        return figures
    }

    /// The same action performed from another thread, so that it hops onto its queue.
    static let dispatchHop = Benchmark(
        name: "dispatch.hop",
        summary: "perform from another thread (one hop onto the action's queue) and wait, ns per round trip"
    ) { context in
        let iterations = context.size(100_000, quick: 5_000)
        let session = BenchmarkDispatchers.session([Timeline(maxEntries: 1_000)])
        let semaphore = DispatchSemaphore(value: 0)
        let rounds = context.interleavedRounds([
            {
                nanosecondsPerOperation(iterations, context: context, on: nil) {
                    for _ in 0..<iterations {
                        BenchmarkQueues.action.async { semaphore.signal() }
                        semaphore.wait()
                    }
                }
            },
            {
                nanosecondsPerOperation(iterations, context: context, on: nil) {
                    for _ in 0..<iterations {
                        session.perform(BenchmarkFeature.trivial) { _ in semaphore.signal() }
                        semaphore.wait()
                    }
                }
            },
        ])
        let (baseline, samples) = (rounds[0], rounds[1])
        return [
            Figure(
                name: "dispatch.hop, timeline",
                subject: Measurement(
                    label: "ActionSession.perform from another thread",
                    unit: "ns/op",
                    samples: samples
                ),
                baseline: Measurement(label: "DispatchQueue.async round trip", unit: "ns/op", samples: baseline),
                higherIsBetter: false,
                note: "both wait on a semaphore signalled from the action queue"
            )
        ]
    }

    /// `await binding.perform()` against a bare continuation round trip through the same queue.
    static let dispatchAsyncAwait = Benchmark(
        name: "dispatch.async-await",
        summary: "await perform of a callback and of an async action, against withCheckedContinuation, ns per await"
    ) { context in
        let iterations = context.size(100_000, quick: 5_000)
        let session = BenchmarkDispatchers.session([Timeline(maxEntries: 1_000)])
        let bare: () -> Double = {
            awaitNanoseconds(iterations) {
                await withCheckedContinuation { continuation in
                    BenchmarkQueues.action.async { continuation.resume() }
                }
            }
        }
        // The bare round trip is measured before each case in every round, so each ratio has its own baseline.
        let rounds = context.interleavedRounds([
            bare,
            { awaitNanoseconds(iterations) { await session.perform(BenchmarkFeature.trivial) } },
            bare,
            { awaitNanoseconds(iterations) { await session.perform(BenchmarkFeature.trivialAsync) } },
        ])
        let (callback, asyncAction) = (rounds[1], rounds[3])
        let baselineLabel = "withCheckedContinuation + DispatchQueue.async"
        return [
            Figure(
                name: "dispatch.async-await, callback action",
                subject: Measurement(label: "await perform (callback action)", unit: "ns/op", samples: callback),
                baseline: Measurement(label: baselineLabel, unit: "ns/op", samples: rounds[0]),
                higherIsBetter: false,
                note: "awaited from a task, so every perform hops onto the action's queue"
            ),
            Figure(
                name: "dispatch.async-await, async action",
                subject: Measurement(label: "await perform (AsyncAction)", unit: "ns/op", samples: asyncAction),
                baseline: Measurement(label: baselineLabel, unit: "ns/op", samples: rounds[2]),
                higherIsBetter: false,
                note: "the awaiting task runs the async body itself, moved onto the action queue's executor, "
                    + "behind its serial gate"
            ).target(.ratio, 1.3),
        ]
    }

    /// One million dispatches into a 1,000-entry timeline: resident memory must stay flat.
    static let timelineMemory = Benchmark(
        name: "timeline.memory",
        summary: "resident memory across one million dispatches into Timeline(maxEntries: 1000)"
    ) { context in
        let iterations = context.size(1_000_000, quick: 50_000)
        let timeline = Timeline(maxEntries: 1_000)
        let session = BenchmarkDispatchers.session([timeline])
        let warmUp = 10_000
        BenchmarkQueues.action.sync {
            for _ in 0..<warmUp { session.perform(BenchmarkFeature.trivial, completion: nil) }
        }
        let before = ProcessMemory.residentBytes()
        BenchmarkQueues.action.sync {
            for _ in 0..<iterations { session.perform(BenchmarkFeature.trivial, completion: nil) }
        }
        let after = ProcessMemory.residentBytes()
        guard timeline.snapshot().count == 1_000 else { throw BenchmarkFailure("the timeline did not stay at 1,000") }
        let mebibyte = 1_048_576.0
        return [
            Figure(
                name: "timeline.memory, \(iterations) dispatches",
                subject: Measurement(label: "resident after", unit: "MiB", samples: [Double(after) / mebibyte]),
                baseline: Measurement(label: "resident before", unit: "MiB", samples: [Double(before) / mebibyte]),
                higherIsBetter: false,
                note: String(
                    format: "growth %.3f MiB (target: under 1 MiB); peak resident %.1f MiB",
                    Double(after - before) / mebibyte,
                    Double(ProcessMemory.peakResidentBytes()) / mebibyte
                )
            )
        ]
    }
}

/// Runs `body` (on `queue` if given) and returns nanoseconds per operation.
func nanosecondsPerOperation(
    _ iterations: Int,
    context: BenchmarkContext,
    on queue: DispatchQueue?,
    _ body: () -> Void
)
    -> Double
{
    let seconds = queue.map { queue in queue.sync { context.seconds(body) } } ?? context.seconds(body)
    return seconds * 1e9 / Double(iterations)
}

/// Runs `body` `iterations` times in a task, waits for it, and returns nanoseconds per iteration.
func awaitNanoseconds(_ iterations: Int, _ body: @escaping @Sendable () async -> Void) -> Double {
    let result = Mutex<Double>(0)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<iterations { await body() }
        let elapsed = clock.now - start
        result.withLock { $0 = elapsed.seconds * 1e9 / Double(iterations) }
        done.signal()
    }
    done.wait()
    return result.withLock { $0 }
}

/// Reads this process's memory use from `/proc/self/status` (0 where it is not available).
enum ProcessMemory {
    static func residentBytes() -> Int { value(of: "VmRSS") }
    static func peakResidentBytes() -> Int { value(of: "VmHWM") }

    private static func value(of field: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
            return kilobytes * 1_024
        }
        return 0
    }
}

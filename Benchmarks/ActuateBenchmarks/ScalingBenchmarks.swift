import Actuate
import Dispatch
import Foundation

extension Benchmark {
    /// Threads on separate queues sharing one dispatcher and one timeline, against the same threads calling a
    /// bare closure.
    static let dispatchScaling = Benchmark(
        name: "dispatch.scaling",
        summary: "dispatches per second with 1, 2 and 4 threads on separate queues sharing a dispatcher and timeline"
    ) { context in
        let perThread = context.size(500_000, quick: 10_000)
        let session = BenchmarkDispatchers.session([Timeline(maxEntries: 1_000)])
        let loops = ScalingLanes.loops(session: session, count: perThread)
        // One counter per lane, each on a cache line of its own: the bare baseline then shows how far this machine
        // runs the lanes' threads side by side in the same rounds, rather than how a shared counter contends.
        let sinks = (0..<4).map { _ in BenchmarkSink() }
        let floorLoop: @Sendable (Int) -> Void = { lane in
            let work: @Sendable () -> ActionOutcome = { .success }
            let sink = sinks[lane]
            for _ in 0..<perThread { sink.take(work()) }
        }
        let threadCounts = [1, 2, 4]
        var variants: [() -> Double] = []
        for threads in threadCounts {
            variants.append { throughput(threads: threads, perThread: perThread) { floorLoop($0) } }
            variants.append { throughput(threads: threads, perThread: perThread) { loops[$0]() } }
        }
        let samples = context.interleavedRounds(variants)
        var figures: [Figure] = []
        for (index, threads) in threadCounts.enumerated() {
            figures.append(
                Figure(
                    name: "dispatch.scaling, \(threads) thread\(threads == 1 ? "" : "s")",
                    subject: Measurement(
                        label: "ActionSession.perform, timeline",
                        unit: "dispatches/s",
                        samples: samples[2 * index + 1]
                    ),
                    baseline: Measurement(
                        label: "bare closure, same threads",
                        unit: "calls/s",
                        samples: samples[2 * index]
                    ),
                    higherIsBetter: true,
                    note: "each thread performs its own action on its own queue; one dispatcher and one timeline"
                )
            )
        }
        for (index, threads) in threadCounts.enumerated().dropFirst() {
            let figure =
                Figure(
                    name: "dispatch.scaling, \(threads) threads over 1",
                    subject: Measurement(
                        label: "\(threads) threads",
                        unit: "dispatches/s",
                        samples: samples[2 * index + 1]
                    ),
                    baseline: Measurement(label: "1 thread", unit: "dispatches/s", samples: samples[1]),
                    higherIsBetter: true,
                    note:
                        "\(ProcessInfo.processInfo.activeProcessorCount) cores; throughput with \(threads) threads over throughput with 1, per round"
                )
            // The issue's target: two threads reach 1.6 times one thread's throughput.
            figures.append(threads == 2 ? figure.target(.ratio, 1.6) : figure)
            figures.append(
                Figure(
                    name: "dispatch.scaling, bare closure, \(threads) threads over 1",
                    subject: Measurement(
                        label: "\(threads) threads",
                        unit: "calls/s",
                        samples: samples[2 * index]
                    ),
                    baseline: Measurement(label: "1 thread", unit: "calls/s", samples: samples[0]),
                    higherIsBetter: true,
                    note: "the same rounds' baseline, each thread counting on its own cache line: how far the machine "
                        + "ran \(threads) threads side by side while Actuate's figure above was measured"
                )
            )
        }
        return figures
    }
}

/// Starts `threads` threads that each run `body(laneIndex)`, waits for all, and returns operations per second.
func throughput(threads: Int, perThread: Int, _ body: @escaping @Sendable (Int) -> Void) -> Double {
    let group = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for lane in 0..<threads {
        group.enter()
        let thread = Thread {
            start.wait()
            body(lane)
            group.leave()
        }
        thread.start()
    }
    let clock = ContinuousClock()
    let began = clock.now
    for _ in 0..<threads { start.signal() }
    group.wait()
    let elapsed = clock.now - began
    return Double(threads * perThread) / elapsed.seconds
}

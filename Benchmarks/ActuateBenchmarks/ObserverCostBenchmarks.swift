import Actuate
import Foundation

extension Benchmark {
    /// What each extra observer costs a dispatch: 0, 1, 10 and 100 no-op observers.
    static let dispatchPlugins = Benchmark(
        name: "dispatch.observers",
        summary: "ns per synchronous dispatch with 0, 1, 10 and 100 no-op observers"
    ) { context in
        let iterations = context.size(200_000, quick: 5_000)
        let counts = [0, 1, 10, 100]
        let sessions = counts.map { BenchmarkDispatchers.session(Array(repeating: NoOpPlugin(), count: $0)) }
        let samples = context.interleavedRounds(
            sessions.map { session in
                {
                    nanosecondsPerOperation(iterations, context: context, on: BenchmarkQueues.action) {
                        for _ in 0..<iterations { session.perform(BenchmarkFeature.trivial, completion: nil) }
                    }
                }
            }
        )
        let none = Measurement(label: "no observers", unit: "ns/op", samples: samples[0])
        var figures = counts.enumerated().dropFirst().map { index, count in
            let perPlugin = zip(samples[index], samples[0]).map { ($0 - $1) / Double(count) }
            let median = Measurement(label: "", unit: "", samples: perPlugin).median
            return Figure(
                name: "dispatch.observers, \(count)",
                subject: Measurement(
                    label: "\(count) no-op observer\(count == 1 ? "" : "s")",
                    unit: "ns/op",
                    samples: samples[index]
                ),
                baseline: none,
                higherIsBetter: false,
                note: String(format: "%.1f ns per extra observer (median of per-round differences)", median)
            )
        }
        // What one more observer adds to a dispatch that already has one: ten observers against one, in the same
        // rounds. The first observer also turns on the plugin path (the clock readings, the input's description,
        // the completion notifier), a one-time cost per dispatch that the timeline row measures; against no
        // observers, that cost is spread over the ten.
        let one = counts.firstIndex(of: 1) ?? 1
        let ten = counts.firstIndex(of: 10) ?? 2
        figures.append(
            Figure(
                name: "dispatch.observers, per extra observer",
                subject: Measurement(
                    label: "(10 observers less 1) / 9",
                    unit: "ns",
                    samples: zip(samples[ten], samples[one]).map { ($0 - $1) / 9 }
                ),
                baseline: nil,
                higherIsBetter: false,
                note: "from the rounds of the figures above: each round's 10-observer time less its 1-observer time"
            ).target(.median, 15)
        )
        figures.append(
            Figure(
                name: "dispatch.observers, per observer with the plugin path's one-time cost",
                subject: Measurement(
                    label: "(10 observers less none) / 10",
                    unit: "ns",
                    samples: zip(samples[ten], samples[0]).map { ($0 - $1) / 10 }
                ),
                baseline: nil,
                higherIsBetter: false,
                note: "each round's 10-observer time less its no-observer time: the first observer's one-time cost "
                    + "(clock readings, input description, completion notifier) spread over the ten"
            )
        )
        return figures
    }
}

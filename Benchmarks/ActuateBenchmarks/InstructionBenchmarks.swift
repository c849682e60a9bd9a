import Foundation

extension Benchmark {
    /// Instructions per dispatch, counted by callgrind, for the dispatch figures whose targets are in
    /// instructions, and for the Flint-style comparison: exact however loaded the machine is.
    static let dispatchInstructions = Benchmark(
        name: "dispatch.instructions",
        summary: "instructions per synchronous dispatch counted by callgrind, against none and against Flint-style"
    ) { context in
        guard DispatchProfiler.isAvailable else {
            print("   skipped: valgrind is not installed (apt-get install valgrind)")
            return []
        }
        // Counts are exact, so one run each; the quick run counts fewer dispatches.
        let (small, large) = context.quick ? (1_000, 2_000) : (10_000, 20_000)
        var counts: [String: (instructions: Double, atomics: Double, mallocs: Double)] = [:]
        for name in ["none", "timeline", "timeline-completion", "all", "flint", "flint-timeline"] {
            counts[name] = try DispatchProfiler.perDispatch(name, small: small, large: large)
        }
        func measurement(_ name: String, _ label: String) -> Measurement {
            Measurement(label: label, unit: "instructions", samples: [counts[name]?.instructions ?? .nan])
        }
        func detail(_ name: String) -> String {
            guard let count = counts[name] else { return "" }
            return String(format: "%.2f atomics, %.3f mallocs", count.atomics, count.mallocs)
        }
        let method =
            "callgrind, exact: (\(large) dispatches less \(small)) / \(large - small), one run per case"
        return [
            Figure(
                name: "dispatch.sync instructions, timeline",
                subject: measurement("timeline", "ActionSession.perform, timeline"),
                baseline: measurement("none", "ActionSession.perform, no plugins"),
                higherIsBetter: false,
                note: "\(method); timeline \(detail("timeline")), no plugins \(detail("none"))"
            ).target(.median, 2_000),
            Figure(
                name: "dispatch.sync instructions, timeline, with a completion closure",
                subject: measurement("timeline-completion", "ActionSession.perform, timeline, completion closure"),
                baseline: measurement("timeline", "ActionSession.perform, timeline"),
                higherIsBetter: false,
                note: "\(method); the closure the timed dispatch.sync passes, which captures a sink: storing it "
                    + "counts a reference, as an app's closures do; \(detail("timeline-completion"))"
            ).target(.median, 2_000),
            Figure(
                name: "dispatch.sync instructions, every core plugin + reporting",
                subject: measurement("all", "ActionSession.perform, every core plugin + reporting"),
                baseline: measurement("none", "ActionSession.perform, no plugins"),
                higherIsBetter: false,
                note: "\(method); every plugin \(detail("all"))"
            ),
            Figure(
                name: "dispatch.sync instructions against Flint-style, no plugins",
                subject: measurement("none", "ActionSession.perform, no plugins"),
                baseline: measurement("flint", "Flint-style dispatch, no plugins"),
                higherIsBetter: false,
                note: "\(method), every thread counted; Flint-style \(detail("flint"))"
            ),
            Figure(
                name: "dispatch.sync instructions against Flint-style, timeline",
                subject: measurement("timeline", "ActionSession.perform, timeline"),
                baseline: measurement("flint-timeline", "Flint-style dispatch, timeline"),
                higherIsBetter: false,
                note: "\(method), every thread counted; Flint-style \(detail("flint-timeline"))"
            ),
        ]
    }
}

import Actuate
import Foundation

extension Benchmark {
    /// What an app pays before its first action: `ActuateSystem.quickSetup` of 50 features of 10 actions each,
    /// then the first dispatch, against the same 500 registrations written by hand into dictionaries and one
    /// closure call. Each sample is a fresh process (see ``SetupProbe``).
    static let setupFirstAction = Benchmark(
        name: "setup.first-action",
        summary: "quickSetup of 50 features × 10 actions up to the first dispatch finished, in fresh processes, µs"
    ) { context in
        // Each round's sample is the median of this many processes per variant, the variants alternating.
        let processes = context.size(5, quick: 1)
        var wallTimes: [SetupProbe.Mode: [Double]] = [:]
        func round(_ mode: SetupProbe.Mode) throws -> [Double] {
            try (0..<processes).map { _ in
                let child = try SetupProbe.spawn(mode)
                wallTimes[mode, default: []].append(child.processMilliseconds)
                return child.microseconds
            }
        }
        // Baseline and Actuate alternate round by round, so that both see the same machine.
        let samples = try context.interleavedRounds([
            { Measurement(label: "", unit: "", samples: try round(.baseline)).median },
            { Measurement(label: "", unit: "", samples: try round(.actuate)).median },
        ])
        func median(_ values: [Double]?) -> String {
            BenchmarkRunner.format(Measurement(label: "", unit: "", samples: values ?? []).median)
        }
        return [
            Figure(
                name: "setup.first-action, 50 features × 10 actions",
                subject: Measurement(
                    label: "quickSetup + first perform",
                    unit: "µs",
                    samples: samples[1]
                ),
                baseline: Measurement(
                    label: "500 dictionary registrations + 1 call",
                    unit: "µs",
                    samples: samples[0]
                ),
                higherIsBetter: false,
                note: "each sample the median of \(processes) fresh processes (quickSetup runs once per process: "
                    + "features are prepared once per process, so a second setup in one process would find them "
                    + "prepared); timed inside the process from before the setup to the first completion; a whole "
                    + "child process took \(median(wallTimes[.actuate])) ms with Actuate, "
                    + "\(median(wallTimes[.baseline])) ms by hand, start to exit"
            ).target(.median, 1_000)
        ]
    }
}

/// Runs an app's first moments in a fresh process of this executable, and times them there.
///
/// `ACTUATE_BENCH_SETUP=actuate actuate-bench` builds the app of ``SetupFixtures`` with
/// `ActuateSystem.quickSetup` and performs its first action; `ACTUATE_BENCH_SETUP=baseline` registers the same
/// action types by hand and calls one closure. Either prints the nanoseconds from before the registrations to the
/// first completion, and exits. A fresh process is the only honest place to measure this: feature metadata,
/// Swift's type metadata and protocol conformance caches, and the code's pages are all cold only once per process,
/// and an app sets up once.
enum SetupProbe {
    static let variable = "ACTUATE_BENCH_SETUP"

    /// What a child process does.
    enum Mode: String, Hashable {
        /// `ActuateSystem.quickSetup`, then `ActionSession.main.perform` of the first action.
        case actuate
        /// The same action types registered into dictionaries keyed by ObjectIdentifier, then one closure call.
        case baseline
    }

    /// What one child process measured.
    struct Child {
        /// The setup and first action, timed inside the child.
        var microseconds: Double
        /// The whole child, from spawning it to its exit, timed by the parent.
        var processMilliseconds: Double
    }

    /// Inside a child process: runs `mode` once, prints the nanoseconds it took, and returns the exit status.
    static func child(_ name: String) -> Int32 {
        guard let mode = Mode(rawValue: name) else {
            print("\(variable) must be actuate or baseline, not \(name)")
            return 2
        }
        let sink = BenchmarkSink()
        let queue = BenchmarkQueues.action
        let clock = ContinuousClock()
        let start = clock.now
        switch mode {
        case .actuate:
            do {
                try ActuateSystem.quickSetup(group: SetupFixtures.self)
            } catch {
                print("quickSetup failed: \(error)")
                return 1
            }
            // On its own queue the action runs inline and completes synchronously, so the dispatch ends here.
            queue.sync { ActionSession.main.perform(SetupFeature00.step0) { sink.take($0) } }
        case .baseline:
            let features = SetupFixtures.registerByHand()
            queue.sync {
                if let body = features[ObjectIdentifier(SetupFeature00.self)]?[
                    ObjectIdentifier(Setup00Step0Action.self)
                ] {
                    sink.take(body())
                }
            }
        }
        let elapsed = clock.now - start
        guard sink.total == 1 else {
            print("the first action did not complete")
            return 1
        }
        print(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
        return 0
    }

    /// Runs a child process in `mode` and returns what it measured.
    static func spawn(_ mode: Mode) throws -> Child {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = []
        var environment = ProcessInfo.processInfo.environment
        environment[variable] = mode.rawValue
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        let clock = ContinuousClock()
        let start = clock.now
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let wall = clock.now - start
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0, let nanoseconds = Double(text) else {
            throw BenchmarkFailure("the \(mode.rawValue) setup process failed (\(process.terminationStatus)): \(text)")
        }
        return Child(
            microseconds: nanoseconds / 1_000,
            processMilliseconds: Double(wall.components.seconds) * 1_000 + Double(wall.components.attoseconds) / 1e15
        )
    }
}

import Actuate
import Foundation

/// Counts instructions, atomic instructions and mallocs per dispatch with valgrind's callgrind.
///
/// `ACTUATE_BENCH_PROFILE=timeline swift run -c release actuate-bench` runs this executable twice under
/// `valgrind --tool=callgrind --collect-bus=yes`, dispatching 10,000 and then 20,000 times, and prints the
/// difference divided by 10,000: the cost of one dispatch without the start-up around it. Cases: `none` and
/// `timeline` (performed with no completion), `timeline-completion` (with the completion closure that the timed
/// `dispatch.sync` benchmark passes), `core` (every core plugin), `all` (every core plugin and reporting),
/// `observers1` and `observers10` (one and ten no-op observers), `async` (`await` of a trivial ``AsyncAction`` from
/// a task, timeline installed), `async-callback` (`await` of the trivial callback action from a task, timeline
/// installed) and `await` (the bare `withCheckedContinuation` round trip through the action queue that `async` is
/// compared with), `flint` and `flint-timeline` (a ``FlintStyleDispatcher`` without and with its timeline,
/// observers drained), and `upload-encode` (one event appended, fetched, written as JSON and removed by the
/// uploader; see ``UploadProfile``).
/// Counts are exact for a given binary and input, however loaded the machine is. "Atomics" are callgrind's
/// global bus events (`Ge`): locked read-modify-write instructions.
enum DispatchProfiler {
    private static let iterationsVariable = "ACTUATE_BENCH_PROFILE_ITERATIONS"

    /// Profiles `name`, or, inside a callgrind run, performs the dispatches and returns.
    static func run(_ name: String) throws {
        let environment = ProcessInfo.processInfo.environment
        if let iterations = environment[iterationsVariable].flatMap(Int.init) {
            if JournalProfile.handles(name) { return try JournalProfile.run(name, times: iterations) }
            if UploadProfile.handles(name) { return try UploadProfile.run(name, times: iterations) }
            dispatch(name, times: iterations)
            return
        }
        let counts = try perDispatch(name)
        print("actuate-bench profile '\(name)': per dispatch (callgrind, 20,000 minus 10,000 dispatches)")
        print(String(format: "  instructions  %8.1f", counts.instructions))
        print(String(format: "  atomics       %8.2f", counts.atomics))
        print(String(format: "  mallocs       %8.3f", counts.mallocs))
    }

    /// Whether valgrind can be run here.
    static var isAvailable: Bool {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        return paths.contains { FileManager.default.isExecutableFile(atPath: "\($0)/valgrind") }
    }

    /// The instructions, atomics and mallocs of one dispatch of case `name`: callgrind's counts for `large`
    /// dispatches less those for `small`, divided by the difference, so that start-up does not count.
    static func perDispatch(
        _ name: String,
        small: Int = 10_000,
        large: Int = 20_000
    ) throws -> (instructions: Double, atomics: Double, mallocs: Double) {
        let smallCounts = try countsUnderCallgrind(name, iterations: small)
        let largeCounts = try countsUnderCallgrind(name, iterations: large)
        let dispatches = Double(max(1, large - small))
        return (
            Double(largeCounts.instructions - smallCounts.instructions) / dispatches,
            Double(largeCounts.atomics - smallCounts.atomics) / dispatches,
            Double(largeCounts.mallocs - smallCounts.mallocs) / dispatches
        )
    }

    private static func dispatch(_ name: String, times: Int) {
        if name == "flint" || name == "flint-timeline" {
            let flintDispatcher = FlintStyleDispatcher(actionQueue: BenchmarkQueues.action)
            if name == "flint-timeline" { flintDispatcher.add(observer: FlintStyleTimeline(maxEntries: 1_000)) }
            BenchmarkQueues.action.sync {
                for _ in 0..<times {
                    flintDispatcher.perform(actionName: "Trivial Sync", body: { $0.complete(success: true) }) { _ in }
                }
                flintDispatcher.drainObservers()
            }
            return
        }
        let core = BenchmarkDispatchers.corePlugins()
        let session: ActionSession
        switch name {
        case "timeline", "timeline-completion":
            session = BenchmarkDispatchers.session([Timeline(maxEntries: 1_000)])
        case "core": session = BenchmarkDispatchers.session(core.observers, loggerFactory: core.logging)
        case "all":
            session = BenchmarkDispatchers.session(
                core.observers + [BenchmarkDispatchers.reportingPlugin()],
                loggerFactory: core.logging
            )
        case "observers1": session = BenchmarkDispatchers.session([NoOpPlugin()])
        case "observers10": session = BenchmarkDispatchers.session(Array(repeating: NoOpPlugin(), count: 10))
        case "async", "async-callback", "await": session = BenchmarkDispatchers.session([Timeline(maxEntries: 1_000)])
        default: session = BenchmarkDispatchers.session([])
        }
        if name == "async" {
            _ = awaitNanoseconds(times) { await session.perform(BenchmarkFeature.trivialAsync) }
            return
        }
        if name == "async-callback" {
            _ = awaitNanoseconds(times) { await session.perform(BenchmarkFeature.trivial) }
            return
        }
        if name == "await" {
            _ = awaitNanoseconds(times) {
                await withCheckedContinuation { continuation in
                    BenchmarkQueues.action.async { continuation.resume() }
                }
            }
            return
        }
        if name == "timeline-completion" {
            // The closure the timed `dispatch.sync` benchmark passes: it captures a sink, so storing it counts a
            // reference.
            let sink = BenchmarkSink()
            let completion: @Sendable (ActionOutcome) -> Void = { sink.take($0) }
            BenchmarkQueues.action.sync {
                for _ in 0..<times { session.perform(BenchmarkFeature.trivial, completion: completion) }
            }
            return
        }
        BenchmarkQueues.action.sync {
            for _ in 0..<times { session.perform(BenchmarkFeature.trivial, completion: nil) }
        }
    }

    private static func countsUnderCallgrind(_ name: String, iterations: Int) throws -> CallgrindCounts {
        let output = FileManager.default.temporaryDirectory.appending(path: "actuate-callgrind-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "valgrind", "--tool=callgrind", "--collect-bus=yes", "--compress-strings=no", "--compress-pos=no",
            "--callgrind-out-file=\(output.path)", CommandLine.arguments[0],
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["ACTUATE_BENCH_PROFILE"] = name
        environment[iterationsVariable] = "\(iterations)"
        process.environment = environment
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkFailure("valgrind exited with status \(process.terminationStatus); is valgrind installed?")
        }
        return try CallgrindCounts(file: output)
    }
}

/// The totals of one callgrind output file that the profile needs.
struct CallgrindCounts {
    var instructions = 0
    var atomics = 0
    var mallocs = 0

    /// Reads a file written with `--collect-bus=yes --compress-strings=no`.
    init(file: URL) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        var events: [Substring] = []
        var calledFunction: Substring = ""
        for line in text.split(separator: "\n") {
            if line.hasPrefix("events:") {
                events = line.dropFirst("events:".count).split(separator: " ")
            } else if line.hasPrefix("summary:") || line.hasPrefix("totals:") {
                let values = line.split(separator: " ").dropFirst().compactMap { Int($0) }
                for (event, value) in zip(events, values) {
                    if event == "Ir" { instructions = value }
                    if event == "Ge" { atomics = value }
                }
            } else if line.hasPrefix("cfn=") {
                calledFunction = line.dropFirst("cfn=".count)
            } else if line.hasPrefix("calls="), Self.isMalloc(calledFunction) {
                mallocs += Int(line.dropFirst("calls=".count).split(separator: " ").first ?? "") ?? 0
            }
        }
        guard instructions > 0 else { throw BenchmarkFailure("no instruction totals in \(file.path)") }
    }

    private static func isMalloc(_ function: Substring) -> Bool {
        let name = function.split(separator: "'").first ?? ""
        return name == "malloc" || name == "__libc_malloc"
    }
}

import ActuateReporting
import Foundation

extension Benchmark {
    /// `actuate stats` over collected batch files against DuckDB running `Warehouse/statistics.sql` over the same
    /// events as NDJSON, and the peak RSS of `actuate stats`.
    static let statsAudience = Benchmark(
        name: "stats.audience",
        summary: "actuate stats over batch files (events/s, one thread; peak RSS) against DuckDB over the same NDJSON"
    ) { context in
        let count = context.size(10_000_000, quick: 50_000)
        let directory = JournalBenchmarkFiles.temporaryDirectory("audience")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (batchFiles, ndjson) = try AudienceBenchmarkFiles.write(count: count, in: directory)
        let actuate = try AudienceBenchmarkFiles.tool("actuate")
        let python = AudienceBenchmarkFiles.warehousePython()
        var peakRSS: [Double] = []
        let statsRound: () throws -> Double = {
            var result = ChildRun()
            let seconds = try context.seconds {
                result = try ChildRun.run(actuate, ["stats"] + batchFiles + ["--json"])
            }
            guard result.status == 0, result.output.contains("\"eventCount\" : \(count)") else {
                throw BenchmarkFailure("actuate stats exited \(result.status) without \(count) events")
            }
            peakRSS.append(Double(result.peakRSSKilobytes) / 1024)
            return Double(count) / seconds
        }
        let duckRound: () throws -> Double = {
            guard let python else { throw BenchmarkFailure("no .build/warehouse-venv (made by .ci/run)") }
            var result = ChildRun()
            let script = AudienceBenchmarkFiles.root.appendingPathComponent("Warehouse/run_statistics.py").path
            let seconds = try context.seconds {
                result = try ChildRun.run(python, [script, "--engine", "duckdb", ndjson, "--json"])
            }
            guard result.status == 0, result.output.contains("\"eventCount\": \(count)") else {
                throw BenchmarkFailure("run_statistics.py exited \(result.status) without \(count) events")
            }
            return Double(count) / seconds
        }
        var figures: [Figure] = []
        if python != nil {
            let rounds = try context.interleavedRounds([duckRound, statsRound])
            figures.append(
                Figure(
                    name: "stats.audience, \(count) events",
                    subject: Measurement(label: "actuate stats over batch files", unit: "events/s", samples: rounds[1]),
                    baseline: Measurement(
                        label: "DuckDB, Warehouse SQL over NDJSON",
                        unit: "events/s",
                        samples: rounds[0]
                    ),
                    higherIsBetter: true,
                    note:
                        "\(batchFiles.count) files of 500-event Actuate batches (\(AudienceBenchmarkFiles.megabytes(batchFiles)) MB), "
                        + "deduplicated by id, on one thread, process start included; DuckDB loads the same events' flat rows "
                        + "(\(AudienceBenchmarkFiles.megabytes([ndjson])) MB) and runs every query of run_statistics.py, "
                        + "with its own threads"
                ).target(.median, 1_000_000)
            )
        } else {
            let samples = try context.rounds(statsRound)
            figures.append(
                Figure(
                    name: "stats.audience, \(count) events",
                    subject: Measurement(label: "actuate stats over batch files", unit: "events/s", samples: samples),
                    baseline: nil,
                    higherIsBetter: true,
                    note: "no DuckDB baseline: .build/warehouse-venv is missing (made by .ci/run)"
                ).target(.median, 1_000_000)
            )
        }
        let measured = Array(peakRSS.suffix(context.measuredRounds))
        figures.append(
            Figure(
                name: "stats.audience peak RSS, \(count) events",
                subject: Measurement(label: "actuate stats maximum resident set", unit: "MB", samples: measured),
                baseline: nil,
                higherIsBetter: false,
                note: "getrusage's ru_maxrss of the actuate process, the benchmark's own peak reset before each spawn"
            ).target(.median, 200)
        )
        return figures
    }
}

/// The events the audience benchmark reads, written once: Actuate batch files and the same events as flat NDJSON.
enum AudienceBenchmarkFiles {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A built tool next to this benchmark's executable (`swift build -c release --product actuate` builds it).
    static func tool(_ name: String) throws -> String {
        let path = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchmarkFailure("\(path) is missing: build it first with swift build -c release --product \(name)")
        }
        return path
    }

    /// The warehouse virtual environment's Python, when `.ci/run` has made it.
    static func warehousePython() -> String? {
        let path = root.appendingPathComponent(".build/warehouse-venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    static func megabytes(_ paths: [String]) -> Int {
        let bytes = paths.reduce(0) { total, path in
            total + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        }
        return bytes / 1_000_000
    }

    /// Writes `count` events, 500 to a batch and 100,000 to a file, and the same events as one NDJSON file.
    ///
    /// The mix: 200,000 visitors with two sessions each; per ten events about four impressions, one click, a close,
    /// a product click or purchase now and then, two `action_ended` events with durations, and screen views.
    static func write(count: Int, in directory: URL) throws -> (batchFiles: [String], ndjson: String) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let ndjsonPath = directory.appendingPathComponent("events.ndjson").path
        guard
            let ndjson = FileHandle(forWritingAtPath: ndjsonPath)
                ?? {
                    _ = FileManager.default.createFile(atPath: ndjsonPath, contents: nil)
                    return FileHandle(forWritingAtPath: ndjsonPath)
                }()
        else { throw BenchmarkFailure("cannot write \(ndjsonPath)") }
        defer { try? ndjson.close() }
        var files: [String] = []
        var random = SplitMix(seed: 43)
        var index = 0
        while index < count {
            let path = directory.appendingPathComponent("batches-\(files.count).json").path
            var fileBytes: [UInt8] = []
            var rows: [UInt8] = []
            let fileEnd = min(count, index + 100_000)
            while index < fileEnd {
                let batchEnd = min(fileEnd, index + 500)
                var events: [ReportEvent] = []
                events.reserveCapacity(batchEnd - index)
                while index < batchEnd {
                    events.append(event(index, &random))
                    index += 1
                }
                fileBytes += EventBatchEncoding.actuate.body(
                    of: events,
                    sentAt: Date(timeIntervalSince1970: 1_767_300_000)
                )
                fileBytes.append(0x0A)
                for event in events { FlatEventRow.appendLine(event, to: &rows) }
            }
            guard FileManager.default.createFile(atPath: path, contents: Data(fileBytes)) else {
                throw BenchmarkFailure("cannot write \(path)")
            }
            ndjson.write(Data(rows))
            files.append(path)
        }
        return (files, ndjsonPath)
    }

    private static func event(_ index: Int, _ random: inout SplitMix) -> ReportEvent {
        let visitor = Int(random.next() % 200_000)
        let session = "\(visitor)-\(random.next() % 2)"
        let content = Int(random.next() % 12)
        let kind = Int(random.next() % 100)
        var properties: [String: JSONValue] = [:]
        let type: String
        switch kind {
        case 0..<40, 40..<48, 48..<52, 52..<55:
            type = kind < 40 ? "executed" : kind < 48 ? "target" : kind < 52 ? "close" : "product"
            properties = [
                "contentSource": "action", "actionId": .string(String(content)),
                "actionName": .string("Offer \(content)"),
            ]
            if type == "product" { properties["productId"] = .string("sku-\(random.next() % 500)") }
        case 55..<56:
            type = "purchase"
            properties = ["productIds": .array([.string("sku-\(random.next() % 500)")])]
        case 56..<76:
            type = "action_ended"
            properties = [
                "analyticsId": .string("action-\(content % 4)"), "action": .string("Action \(content % 4)"),
                "feature": "Shop",
                "outcome": random.next() % 40 == 0 ? "failure" : "success",
                "durationSeconds": .number(Double(random.next() % 5_000) / 10_000), "source": "application",
            ]
        default:
            type = "screen_view"
            properties = ["screen": .string("screen-\(content)")]
        }
        let bits = (random.next(), random.next())
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { raw in
            raw.storeBytes(of: bits.0, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: bits.1, toByteOffset: 8, as: UInt64.self)
        }
        return ReportEvent(
            id: UUID(uuid: uuid),
            type: type,
            timestamp: Date(timeIntervalSince1970: 1_767_225_600 + Double(index) * 0.05),
            sessionID: session,
            anonymousID: "visitor-\(visitor)",
            properties: properties
        )
    }

    /// SplitMix64, for events that are the same in every run.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
    }
}

/// A child process run to its end: its exit status, its standard output, and its peak resident set.
struct ChildRun {
    var status: Int32 = -1
    var output = ""
    var peakRSSKilobytes = 0

    /// Runs `executable` with `arguments`, standard output to a temporary file, and waits with `wait4` for its
    /// resource usage.
    static func run(_ executable: String, _ arguments: [String]) throws -> ChildRun {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
            .path
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // Linux records the spawning process's peak resident set into the child's when the child execs (its
        // `ru_maxrss` starts from the peak of the memory it leaves), so the benchmark's own peak, from rows before
        // this one, would be reported as the child's. Resetting this process's peak to its current size first
        // leaves the child's own peak (or this process's current size, when larger).
        Self.resetPeakResidentSet()
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw BenchmarkFailure("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchmarkFailure("wait4: \(String(cString: strerror(errno)))") }
        }
        var result = ChildRun()
        result.status = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        result.output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        result.peakRSSKilobytes = Int(usage.ru_maxrss)
        return result
    }

    /// Resets this process's peak resident set ("high water mark") to its current size, where the system allows
    /// it (Linux 4.0 and later: `/proc/self/clear_refs`); does nothing elsewhere.
    static func resetPeakResidentSet() {
        let descriptor = open("/proc/self/clear_refs", O_WRONLY)
        guard descriptor >= 0 else { return }
        _ = write(descriptor, "5", 1)
        close(descriptor)
    }
}

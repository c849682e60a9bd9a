import ActuateReporting
import Foundation

/// `actuate export SOURCE... --ndjson OUT`: the sources' events, each id once, as rows of the flat table
/// (``FlatEventRow``), one JSON object per line, for DuckDB's `read_json`, ClickHouse's `JSONEachRow` or a
/// warehouse's load job.
enum ExportCommand {
    static func run(_ arguments: [String], io: any ToolIO) throws {
        let parsed = try CommandLineArguments(
            arguments,
            command: "export",
            options: ["--ndjson", "--page-size"]
        )
        if parsed.wantsHelp {
            io.write(HelpText.export)
            return
        }
        let paths = parsed.positionals
        guard !paths.isEmpty else { throw ToolError.usage("SOURCE is missing", command: "export") }
        guard let output = parsed.values["--ndjson"] else {
            throw ToolError.usage(
                "--ndjson OUT is missing (the file to write, or - for standard output)",
                command: "export"
            )
        }
        var pageSize = ReportingStatistics.defaultPageSize
        if let text = parsed.values["--page-size"] {
            guard let value = Int(text), value > 0 else {
                throw ToolError.usage("--page-size must be a whole number above 0, not \"\(text)\"", command: "export")
            }
            pageSize = value
        }
        var writer = try NDJSONOutput(path: output, io: io)
        var writeError: ToolError?
        var line: [UInt8] = []
        line.reserveCapacity(1 << 16)
        let summary = AudienceEvents(sources: paths, pageSize: pageSize).forEachUniqueEvent { event in
            guard writeError == nil else { return }
            FlatEventRow.appendLine(event, to: &line)
            if line.count >= 1 << 20 {
                do throws(ToolError) { try writer.write(line) } catch { writeError = error }
                line.removeAll(keepingCapacity: true)
            }
        }
        if let writeError { throw writeError }
        try writer.write(line)
        try writer.finish()
        for problem in summary.problems {
            io.writeError(TerminalText.escapedKeepingLines("actuate: \(problem)\n"))
        }
        let message =
            "Exported \(summary.uniqueEvents) events (\(summary.repeats) repeats of an event id left out) "
            + "from \(paths.count) source\(paths.count == 1 ? "" : "s") to \(output)\n"
        if output == "-" { io.writeError(message) } else { io.write(message) }
        if let failure = StatsCommand.sourceFailure(summary, sourceCount: paths.count) { throw failure }
    }
}

/// Writes NDJSON to a file, through a temporary file renamed into place at the end (so a failed export leaves no
/// half file under the name), or to standard output for `-`.
private struct NDJSONOutput {
    private let path: String
    private let io: any ToolIO
    private var descriptor: Int32 = -1
    private var temporaryPath = ""

    init(path: String, io: any ToolIO) throws(ToolError) {
        self.path = path
        self.io = io
        guard path != "-" else { return }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        temporaryPath =
            URL(fileURLWithPath: directory)
            .appendingPathComponent(".\(URL(fileURLWithPath: path).lastPathComponent).\(UUID().uuidString).partial")
            .path
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .failure("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    mutating func write(_ bytes: [UInt8]) throws(ToolError) {
        guard !bytes.isEmpty else { return }
        guard descriptor >= 0 else {
            io.write(String(decoding: bytes, as: UTF8.self))
            return
        }
        do {
            // FileHandle writes every byte, retrying interrupted writes, with no raw buffer on our side.
            try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(contentsOf: bytes)
        } catch {
            close(descriptor)
            unlink(temporaryPath)
            descriptor = -1
            throw .failure("cannot write \(path): \(error.localizedDescription)")
        }
    }

    mutating func finish() throws(ToolError) {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw .failure("cannot write \(path): \(reason)")
        }
    }
}

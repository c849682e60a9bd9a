import Foundation

/// `actuate dump REPORT.json [--html OUT.html] [--trace OUT.json]`.
enum DumpCommand {
    static func run(_ arguments: [String], io: any ToolIO) throws {
        let parsed = try CommandLineArguments(arguments, command: "dump", options: ["--html", "--trace"])
        if parsed.wantsHelp {
            io.write(HelpText.dump)
            return
        }
        let path = try parsed.single("REPORT.json", command: "dump")
        let report = try ReportDocument.load(path: path)
        let html = parsed.values["--html"]
        let trace = parsed.values["--trace"]
        if html == nil, trace == nil {
            io.write(ReportText(report: report, colored: io.standardOutputIsTerminal).render())
            return
        }
        let count = report.timeline.entries.count
        if let html {
            let page: String
            do {
                page = try TimelinePage(report: report).html()
            } catch {
                throw ToolError.failure("cannot build the timeline page: \(error)")
            }
            try OutputFile.write(Data(page.utf8), to: html)
            io.write("Wrote the timeline page (\(count) actions) to \(html)\n")
        }
        if let trace {
            let data: Data
            do {
                data = try TraceEvents(report: report).jsonData()
            } catch {
                throw ToolError.failure("cannot build the trace: \(error)")
            }
            try OutputFile.write(data, to: trace)
            io.write("Wrote the trace (\(count) actions) to \(trace); open it in https://ui.perfetto.dev\n")
        }
    }
}

/// Writes an output file, with an error that says why it could not be written.
enum OutputFile {
    static func write(_ data: Data, to path: String) throws(ToolError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw .failure("cannot write \(path): the directory \(directory) does not exist")
        }
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw .failure("cannot write \(path): \((error as NSError).localizedDescription)")
        }
    }
}

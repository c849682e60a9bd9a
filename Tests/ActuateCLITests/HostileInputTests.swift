import Foundation
import Testing

/// Runs the built `actuate` binary on files made to break it: every one ends with status 1 and a message on
/// standard error, never with a signal (a trap) or a stack trace.
@Suite("actuate on hostile files")
struct HostileInputTests {
    /// A hostile input: what to write into the file (nil: make a directory), and the message it must give.
    struct Hostile: CustomTestStringConvertible, Sendable {
        var name: String
        /// The file's bytes; nil for a directory. Bytes, not `Data`: LeakSanitizer cannot see through `Data`'s
        /// packed representation, so a `Data` kept in a static for the whole run is reported as a leak.
        var bytes: [UInt8]?
        var message: String

        var contents: Data? { bytes.map { Data($0) } }

        init(name: String, contents: Data?, message: String) {
            self.name = name
            self.bytes = contents.map { [UInt8]($0) }
            self.message = message
        }

        var testDescription: String { name }
    }

    static var ttlRules: Data {
        Data(
            #"{"contentBlocks":[{"id":"a","name":"A","placeholders":["home"],"html":"<p>x</p>","ttlSeconds":1e300}]}"#
                .utf8
        )
    }

    /// Files every reading command must refuse, whatever it expects to read.
    static let anyCommand: [Hostile] = [
        Hostile(name: "an empty file", contents: Data(), message: ""),
        Hostile(name: "a directory", contents: nil, message: "directory"),
        Hostile(name: "truncated JSON", contents: Data(#"{"formatVersion": 1, "timeline": {"entr"#.utf8), message: ""),
        Hostile(name: "garbage bytes", contents: Data([0xFF, 0xFE, 0x00, 0x1B, 0x5B, 0x32, 0x4A, 0xC3]), message: ""),
        Hostile(
            name: "JSON nested 100,000 deep",
            contents: Data(String(repeating: "[", count: 100_000).utf8),
            message: ""
        ),
        Hostile(
            name: "numbers past every integer type",
            contents: Data(
                #"{"formatVersion": 1e300, "version": 18446744073709551616, "actions": [{"id": -1e300}]}"#.utf8
            ),
            message: ""
        ),
    ]

    static let dumpOnly: [Hostile] = [
        Hostile(
            name: "a report whose action ends past Int64.max",
            contents: try? Fixtures.data("report-overflow.json"),
            message: "$.timeline.entries[0].durationNanoseconds: expected a whole number from 0 to 0"
        ),
        Hostile(
            name: "a report whose format version is 2^64",
            contents: Data(#"{"formatVersion": 18446744073709551616, "timeline": {}}"#.utf8),
            message: "invalid \"formatVersion\""
        ),
        Hostile(
            name: "a report with a start of -1",
            contents: Data(
                (try? String(
                    contentsOf: Fixtures.directory.appendingPathComponent("report-successes.json"),
                    encoding: .utf8
                ))?
                .replacingOccurrences(of: #""startOffsetNanoseconds": 1000000"#, with: #""startOffsetNanoseconds": -1"#)
                .utf8 ?? "".utf8
            ),
            message: "startOffsetNanoseconds: expected a whole number from 0 to 9223372036854775807, found -1"
        ),
    ]

    static let validateOnly: [Hostile] = [
        Hostile(
            name: "a rules file with ttlSeconds 1e300",
            contents: ttlRules,
            message: "$.contentBlocks[0].ttlSeconds: expected a number of seconds from 0.001 to 31536000"
        )
    ]

    private func run(_ command: [String], on hostile: Hostile) async throws -> ChildProcess.Result {
        let scratch = try ScratchDirectory()
        let path = scratch.path("input.json")
        if let contents = hostile.contents {
            try contents.write(to: URL(fileURLWithPath: path))
        } else {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
        return try await ChildProcess.run(ChildProcess.actuateExecutable(), command + [path])
    }

    private func expectRefused(_ result: ChildProcess.Result, _ hostile: Hostile, _ command: String) {
        #expect(!result.signaled, "\(command) on \(hostile.name) died of signal \(result.status): \(result.error)")
        #expect(result.status == 1, "\(command) on \(hostile.name): status \(result.status), \(result.error)")
        #expect(result.error.hasPrefix("actuate: "), "\(command) on \(hostile.name): \(result.error)")
        #expect(
            hostile.message.isEmpty || result.error.contains(hostile.message),
            "\(command) on \(hostile.name): \(result.error)"
        )
        #expect(!result.error.contains("\u{1B}"), "\(command) on \(hostile.name) wrote an escape to the terminal")
    }

    @Test("dump refuses each with status 1 and a message", arguments: anyCommand + dumpOnly)
    func dump(hostile: Hostile) async throws {
        for options in [[], ["--html", "/dev/null"], ["--trace", "/dev/null"]] {
            expectRefused(try await run(["dump"] + options, on: hostile), hostile, "dump \(options)")
        }
    }

    @Test("validate refuses each with status 1 and a message", arguments: anyCommand + validateOnly)
    func validate(hostile: Hostile) async throws {
        expectRefused(try await run(["validate"], on: hostile), hostile, "validate")
    }

    @Test("catalog refuses each with status 1 and a message", arguments: anyCommand)
    func catalog(hostile: Hostile) async throws {
        expectRefused(try await run(["catalog"], on: hostile), hostile, "catalog")
    }

    @Test("stats refuses a file where the store's directory should be")
    func statsOnAFile() async throws {
        let hostile = Hostile(name: "a file", contents: Data("not a store".utf8), message: "input.json")
        expectRefused(try await run(["stats"], on: hostile), hostile, "stats")
    }

    @Test("dump renders a report whose starts are Int64.max and 0 as text, a page and a trace")
    func extremeOffsets() async throws {
        let scratch = try ScratchDirectory()
        let report = Fixtures.path("report-extreme-offsets.json")
        let text = try await ChildProcess.run(ChildProcess.actuateExecutable(), ["dump", report])
        #expect(!text.signaled && text.status == 0, "\(text.error)")
        #expect(text.outputText.contains("+9223372036854.77"), "\(text.outputText)")
        let files = try await ChildProcess.run(
            ChildProcess.actuateExecutable(),
            ["dump", report, "--html", scratch.path("t.html"), "--trace", scratch.path("t.json")]
        )
        #expect(!files.signaled && files.status == 0, "\(files.error)")
        #expect(FileManager.default.fileExists(atPath: scratch.path("t.html")))
        #expect(FileManager.default.fileExists(atPath: scratch.path("t.json")))
    }
}

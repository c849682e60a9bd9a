import Foundation
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuateTesting

struct NotesSection: DebugReportable {
    var debugReportSectionName: String { "notes" }
    func debugReportJSON() throws -> Data { Data(#"{"note":"hello"}"#.utf8) }
    func debugReportText() -> String { "hello\n" }
}

@Suite("Debug report")
struct DebugReportTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("actuate-debug-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("gathers every section, the timeline first, into JSON and text files")
    func writesBothFiles() async throws {
        let harness = ActionTestHarness()
        _ = await harness.perform(GreetingFeature.sayHello, input: "Ada", presenter: GreetingPresenter())
        let report = DebugReport(reportables: [NotesSection(), harness.timeline], dispatcher: harness.dispatcher)
        #expect(report.sections.map(\.debugReportSectionName) == ["timeline", "notes"])
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try report.write(to: directory)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: files.json)) as? [String: Any]
        #expect(json?["sections"] as? [String] == ["timeline", "notes"])
        let timeline = json?["timeline"] as? [String: Any]
        #expect((timeline?["entries"] as? [[String: Any]])?.first?["actionName"] as? String == "Say Hello")
        #expect((json?["notes"] as? [String: String])?["note"] == "hello")
        let text = try String(contentsOf: files.text, encoding: .utf8)
        let timelineIndex = try #require(text.range(of: "== timeline"))
        let notesIndex = try #require(text.range(of: "== notes"))
        #expect(timelineIndex.lowerBound < notesIndex.lowerBound)
        #expect(text.contains("Greeting › Say Hello (Ada)"))
    }

    @Test("both files are owner-only (0600), as every file Actuate writes, whatever the umask")
    func filesAreOwnerOnly() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try DebugReport().write(to: directory)
        for url in [files.json, files.text] {
            let mode = try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
            #expect(mode == 0o600, "\(url.lastPathComponent) is \(String(mode, radix: 8))")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 2)
    }

    @Test("a missing directory is a thrown error")
    func missingDirectory() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID().uuidString)")
        #expect(throws: DebugReportError.directoryMissing(path: missing.path)) {
            try DebugReport().write(to: missing)
        }
    }

    @Test("a file where the directory should be is a thrown error")
    func notADirectory() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        #expect(throws: DebugReportError.notADirectory(path: file.path)) {
            try DebugReport().write(to: file)
        }
    }

    #if os(Linux)
    @Test("an unwritable directory is a thrown error, even for root")
    func unwritableDirectory() {
        #expect {
            try DebugReport().write(to: URL(fileURLWithPath: "/proc/self"))
        } throws: { error in
            guard case DebugReportError.writeFailed(let path, _) = error else { return false }
            return path.hasSuffix("debug-report.json")
        }
    }
    #endif
}

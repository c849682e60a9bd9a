import Foundation
import Testing

@testable import ActuateCLI

@Suite("actuate dump: text")
struct DumpCommandTests {
    @Test("groups the timeline by session, in start order, with offsets, durations, outcomes and queues")
    func rendersTimeline() throws {
        let result = runTool(["dump", Fixtures.path("report-v1.json")])
        #expect(result.status == 0)
        #expect(result.error == "")
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "Actuate debug report (format 1), generated 2026-11-23T10:15:02.123456Z")
        // Cancellations are counted on their own, not as failures and not left out.
        #expect(lines.contains("Timeline: 10 actions in 2 sessions, 2 failed, 1 cancelled (keeps the last 200)"))
        let main = try #require(lines.firstIndex(of: "Session \"main\": 6 actions, 2 failed, 1 cancelled"))
        let background = try #require(lines.firstIndex(of: "Session \"background\": 4 actions"))
        #expect(main < background)
        #expect(
            lines[main + 1]
                == "  ✓      +0.000 ms    250 µs  Catalog › Show Product (p1) → success  "
                + "[#1, queue com.apple.main-thread, started 2026-11-23T10:15:01.000Z]"
        )
        // Numbered in the order the actions began across sessions, with the request id where it differs; the
        // same words and marks as Timeline.textDump().
        let sessionLines = Array(lines[(main + 1)...(main + 6)])
        #expect(sessionLines[2].contains("→ FAILED: There is no product p404.  [#4 (request 3), "))
        #expect(sessionLines[4].hasPrefix("  ⊘ "))
        #expect(sessionLines[4].contains("→ cancelled  [#7 (request 5), "))
        #expect(lines[background + 1].contains("[#3 (request 7), "))
    }

    @Test("failures stand out, sources and automatic requests are named, running actions say so")
    func marksFailures() throws {
        let output = runTool(["dump", Fixtures.path("report-v1.json")]).output
        let failed = output.split(separator: "\n").filter { $0.hasPrefix("  ✗") }
        #expect(failed.count == 2)
        #expect(failed.allSatisfy { $0.contains("FAILED") })
        #expect(
            failed.contains { $0.contains("Express Checkout (2 items) → FAILED, feature terminated: Card declined") }
        )
        #expect(output.contains("  ⊘ "))
        #expect(output.contains("→ cancelled"))
        #expect(output.contains("via openURL shop://product/p3"))
        #expect(output.contains("via continueActivity com.example.shop.sync"))
        #expect(output.contains("Sync › Upload Orders → success, feature terminated"))
        #expect(output.contains("  …     +15.000 ms   running  Sync › Watch Changes → running"))
        #expect(output.contains("automatic"))
    }

    @Test("failures are red only on a terminal")
    func colours() throws {
        let report = try ReportDocument.parse(Fixtures.data("report-v1.json"))
        let coloured = ReportText(report: report, colored: true).render()
        let plain = ReportText(report: report, colored: false).render()
        #expect(coloured.split(separator: "\n").filter { $0.hasPrefix("\u{1B}[1;31m  ✗") }.count == 2)
        #expect(!plain.contains("\u{1B}"))
    }

    @Test("prints the action stacks with their entries, and names the other sections")
    func rendersStacks() {
        let output = runTool(["dump", Fixtures.path("report-v1.json")]).output
        #expect(output.contains("Action stacks: 1 open, 1 recently closed"))
        #expect(output.contains("    #2 [main] Catalog, opened 2026-11-23T10:15:01.000123Z"))
        #expect(output.contains("      #3 Show Product (p404) → FAILED: There is no product p404."))
        #expect(
            output.contains(
                "    #1 [main] Premium, parent #2, opened 2026-11-23T10:15:01.012000Z, "
                    + "closed 2026-11-23T10:15:01.013500Z (featureTerminated)"
            )
        )
        #expect(output.contains("      … 3 older actions evicted"))
        #expect(output.contains("Other sections in the JSON: availability, catalog."))
    }

    @Test(
        "bad reports fail with exit status 1 and a message naming the file and the problem",
        arguments: [
            ("report-before-format-1.json", "was written before format 1 (it has no \"formatVersion\"); re-create it"),
            ("report-v2.json", "is in format 2, but this actuate reads format 1"),
            ("report-missing-field.json", "$.timeline.entries[1] has no \"sessionName\""),
            ("report-truncated.json", "is not JSON"),
            ("no-such-report.json", "cannot read the report"),
        ]
    )
    func rejectsBadReports(file: String, message: String) {
        let result = runTool(["dump", Fixtures.path(file)])
        #expect(result.status == 1)
        #expect(result.output == "")
        #expect(result.error.hasPrefix("actuate: "))
        #expect(result.error.contains(message))
        #expect(result.error.contains(file))
    }

    @Test("a JSON file that is not a report, and a directory, are refused clearly")
    func rejectsOtherFiles() throws {
        let scratch = try ScratchDirectory()
        try Data(#"{"hello": 1}"#.utf8).write(to: URL(fileURLWithPath: scratch.path("other.json")))
        let other = runTool(["dump", scratch.path("other.json")])
        #expect(other.status == 1)
        #expect(other.error.contains("is not an Actuate debug report"))
        let directory = runTool(["dump", scratch.url.path])
        #expect(directory.status == 1)
        #expect(directory.error.contains("it is a directory"))
        let missing = runTool(["dump", scratch.path("absent.json")])
        #expect(missing.error.contains("no such file"))
    }

    @Test("an unwritable output is an error that names the missing directory")
    func missingOutputDirectory() {
        let result = runTool(["dump", Fixtures.path("report-v1.json"), "--html", "/nonexistent-dir/out.html"])
        #expect(result.status == 1)
        #expect(
            result.error
                == "actuate: cannot write /nonexistent-dir/out.html: the directory /nonexistent-dir does not exist\n"
        )
    }
}

@Suite("actuate dump: action stacks read leniently")
struct ActionStacksReadingTests {
    @Test("optional fields of an unexpected shape are skipped, not fatal; a missing required field is")
    func lenient() throws {
        let json = #"""
            {"open": [{"id": 1, "sessionName": "main", "featureName": "Cart", "openedAt": 1767225600,
              "entries": [{"requestID": 4, "actionName": "Add", "outcome": {"success": {}}}]}],
             "closed": []}
            """#
        let stacks = try JSONDecoder().decode(ReportActionStacks.self, from: Data(json.utf8))
        #expect(stacks.open.first?.openedAt == nil)
        #expect(stacks.open.first?.entries.first?.outcome == nil)
        #expect(stacks.open.first?.entries.first?.actionName == "Add")
        let missing = #"{"open": [{"id": 1, "featureName": "Cart", "entries": []}], "closed": []}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ReportActionStacks.self, from: Data(missing.utf8))
        }
    }

    @Test("an unreadable section is reported as such in the text")
    func unreadable() throws {
        var object = try #require(
            try JSONSerialization.jsonObject(with: Fixtures.data("report-v1.json")) as? [String: Any]
        )
        object["actionStacks"] = ["open": "nope"]
        let report = try ReportDocument.parse(JSONSerialization.data(withJSONObject: object))
        #expect(report.actionStacks == nil)
        #expect(
            ReportText(report: report, colored: false).render().contains("the section is present but could not be read")
        )
    }
}

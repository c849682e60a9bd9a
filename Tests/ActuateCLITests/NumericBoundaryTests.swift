import ActuateCLIFuzzEntryPoints
import Foundation
import Testing

@testable import ActuateCLI

/// Every numeric field of a debug report, fed the numbers that trap careless arithmetic: the report is either
/// read, with the number in its field's range, and then written as text, page and trace without trapping, or
/// refused with a message that names the field's path and range.
@Suite("Numeric boundaries of the debug report reader")
struct NumericBoundaryTests {
    static let extremes = [
        "1e300", "-1e300", "1e16", "9223372036854775807", "9223372036854775808", "18446744073709551615",
        "18446744073709551616", "-9223372036854775808", "-0", "-1", "0", "1", "0.5", "1.5",
    ]

    /// A report with one numeric field set to `NUMBER`, and the others to values that keep it valid.
    static func report(_ field: String, _ number: String) -> String {
        func value(_ name: String, _ normal: String) -> String { name == field ? number : normal }
        return """
            {"formatVersion": \(value("formatVersion", "1")), "generatedAt": "g", "sections": ["timeline", "actionStacks"],
             "timeline": {"maxEntries": \(value("maxEntries", "200")), "entries": [
              {"requestID": \(value("requestID", "1")), "sessionName": "main", "featureName": "F", "featurePath": "App/F",
               "actionName": "A", "queueLabel": "q", "inputDescription": "none", "userInitiated": true,
               "source": {"kind": "application"}, "startDate": "d",
               "startOffsetNanoseconds": \(value("startOffsetNanoseconds", "5")),
               "durationNanoseconds": \(value("durationNanoseconds", field == "startOffsetNanoseconds" ? "0" : "7")), "outcome": {"kind": "success"}},
              {"requestID": 2, "sessionName": "main", "featureName": "F", "featurePath": "App/F", "actionName": "B",
               "queueLabel": "q", "inputDescription": "none", "userInitiated": true, "source": {"kind": "application"},
               "startDate": "d", "startOffsetNanoseconds": 0}]},
             "actionStacks": {"open": [{"id": \(value("stackID", "3")), "parentID": \(value("parentID", "1")),
               "sessionName": "main", "featureName": "F", "evictedEntryCount": \(value("evictedEntryCount", "2")),
               "entries": [{"requestID": \(value("stackRequestID", "1")), "actionName": "A"}]}], "closed": []}}
            """
    }

    static func isWhole(_ text: String, in range: ClosedRange<Double>) -> Bool {
        guard let number = Double(text), number == number.rounded(), range.contains(number) else { return false }
        return true
    }

    @Test(
        "a timeline number is read in range or refused at its path, naming the range",
        arguments: [
            ("formatVersion", "$: ", 1.0...1.0),
            ("maxEntries", "$.timeline.maxEntries: ", 0...0x1p63),
            ("requestID", "$.timeline.entries[0].requestID: ", 0...0x1p64),
            ("startOffsetNanoseconds", "$.timeline.entries[0].startOffsetNanoseconds: ", 0...0x1p63),
            ("durationNanoseconds", "$.timeline.entries[0].durationNanoseconds: ", 0...0x1p63),
        ] as [(String, String, ClosedRange<Double>)]
    )
    func timelineField(field: String, path: String, range: ClosedRange<Double>) throws {
        for number in Self.extremes {
            let data = Data(Self.report(field, number).utf8)
            // Past 2^63 − 1 (for Int64) or 2^64 − 1 (for UInt64), which Double cannot tell apart from 2^63 and 2^64.
            let fits =
                Self.isWhole(number, in: range)
                && !(range.upperBound == 0x1p63 && number.count >= 19 && number > "9223372036854775807")
                && !(range.upperBound == 0x1p64 && number == "18446744073709551616")
                && !(field == "durationNanoseconds" && number.hasPrefix("922"))
            do {
                let report = try ReportDocument.parse(data)
                #expect(fits, "\(field) = \(number) was read")
                let entry = try #require(report.timeline.entries.first)
                let read: String =
                    switch field {
                    case "formatVersion": "\(report.formatVersion)"
                    case "maxEntries": "\(report.timeline.maxEntries)"
                    case "requestID": "\(entry.requestID)"
                    case "startOffsetNanoseconds": "\(entry.startOffsetNanoseconds)"
                    default: "\(entry.durationNanoseconds ?? -1)"
                    }
                #expect(Double(read) == Double(number), "\(field) = \(number) was read as \(read)")
                #expect(ToolFuzzing.debugReport(data))
            } catch let problem as ReportProblem {
                #expect(!fits, "\(field) = \(number) was refused: \(problem.text)")
                if field == "formatVersion" {
                    #expect(
                        problem.text.contains("expected a whole number from 1 to 1")
                            || problem.text.contains(", but this actuate reads format 1"),
                        "\(problem.text)"
                    )
                } else {
                    #expect(problem.text.contains(path + "expected a whole number from "), "\(problem.text)")
                }
            }
        }
    }

    @Test(
        "an action stack number out of range makes the section unreadable, never the report",
        arguments: [
            "stackID", "parentID", "evictedEntryCount", "stackRequestID",
        ]
    )
    func stackField(field: String) throws {
        for number in Self.extremes {
            let data = Data(Self.report(field, number).utf8)
            let report = try ReportDocument.parse(data)
            let text = ReportText(report: report, colored: false).render()
            #expect(text.contains("Action stacks:"), "\(field) = \(number)")
            #expect(ToolFuzzing.debugReport(data))
        }
    }

    @Test("a report whose starts are Int64.max and 0 is laid out over the whole span without overflow")
    func extremeOffsets() throws {
        let report = try ReportDocument.parse(try Fixtures.data("report-extreme-offsets.json"))
        let layout = TimelineLayout(entries: report.timeline.entries, packing: .disjoint)
        #expect(layout.origin == 0)
        #expect(layout.span == .max)
        #expect(layout.placements.map(\.end).max() == .max)
        #expect(layout.placements.allSatisfy { $0.start <= $0.end })
        let text = ReportText(report: report, colored: false).render()
        #expect(text.contains("Timeline: 3 actions"))
        _ = try TimelinePage(report: report).html()
        _ = try TraceEvents(report: report).jsonData()
    }

    @Test("an action ending past Int64.max is refused with the path and the range it may take")
    func overflowingEnd() throws {
        #expect(throws: ReportProblem.self) { try ReportDocument.parse(try Fixtures.data("report-overflow.json")) }
        let result = runTool(["dump", Fixtures.path("report-overflow.json")])
        #expect(result.status == 1)
        #expect(
            result.error.contains(
                "$.timeline.entries[0].durationNanoseconds: expected a whole number from 0 to 0 (so that the action "
                    + "ends by 9223372036854775807 ns), found 1000"
            ),
            "\(result.error)"
        )
    }

    @Test("entries built in code with any offsets saturate instead of trapping")
    func saturatingArithmetic() {
        func entry(_ id: UInt64, start: Int64, duration: Int64?) -> ReportTimelineEntry {
            ReportTimelineEntry(
                requestID: id,
                sessionName: "s",
                featureName: "F",
                featurePath: "F",
                actionName: "A",
                queueLabel: "q",
                inputDescription: "none",
                userInitiated: true,
                source: ReportSource(kind: "application"),
                startDate: "d",
                startOffsetNanoseconds: start,
                durationNanoseconds: duration,
                outcome: duration == nil ? nil : ReportOutcome(kind: "success")
            )
        }
        #expect(entry(1, start: .max, duration: .max).endOffsetNanoseconds == .max)
        #expect(entry(1, start: .min, duration: .min).endOffsetNanoseconds == .min)
        let entries = [
            entry(1, start: .min, duration: .max), entry(2, start: .max, duration: nil),
            entry(3, start: 0, duration: -5),
        ]
        let layout = TimelineLayout(entries: entries, packing: .nested)
        #expect(layout.span == .max)
        #expect(layout.placements.allSatisfy { $0.start <= $0.end })
        let report = ReportDocument(
            formatVersion: 1,
            generatedAt: "g",
            sections: ["timeline"],
            timeline: ReportTimeline(maxEntries: 3, entries: entries),
            actionStacks: nil
        )
        #expect(ReportText(report: report, colored: true).render().contains("Timeline: 3 actions"))
        #expect(throws: Never.self) { try TraceEvents(report: report).jsonData() }
    }
}

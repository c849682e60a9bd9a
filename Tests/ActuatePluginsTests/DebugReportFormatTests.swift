import ActuateTesting
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuatePlugins

// Debug report format 1 (the contract in the DocC article "Debugging with the timeline"): what the JSON holds, how it
// reads back, and how documents of other versions fail.

private enum FormatQueue {
    static let queue = DispatchQueue(label: "actuate.tests.format-queue")
}

private struct DeclinedError: Error, Loggable {
    var loggingDescription: String { "Card declined" }
}

/// Ends as its input says; `hold` keeps it running until the test completes it.
private final class AddToCartAction: Action {
    typealias InputType = String
    typealias PresenterType = FormatHolder
    static var queue: DispatchQueue { FormatQueue.queue }

    static func perform(
        context: ActionContext<String>,
        presenter: FormatHolder,
        completion: Completion
    )
        -> Completion.Status
    {
        switch context.input {
        case "decline": return completion.completedSync(.failure(error: DeclinedError()))
        case "close": return completion.completedSync(.failureWithFeatureTermination(error: DeclinedError()))
        case "done": return completion.completedSync(.successWithFeatureTermination)
        case "cancel": return completion.completedSync(.failure(error: ActionCancellationError(bodyStarted: true)))
        case "hold":
            let status = completion.willCompleteAsync()
            presenter.held.withLock { $0 = status }
            return status
        default: return completion.completedSync(.success)
        }
    }
}

private final class FormatHolder: Sendable {
    let held = Mutex<CompletionRequirement<ActionPerformOutcome>.DeferredStatus?>(nil)
}

private final class FormatCartFeature: Feature {
    static let add = action(AddToCartAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(add)
    }
}

private final class FormatShopFeatures: FeatureGroup {
    static let subfeatures: [any FeatureDefinition.Type] = [FormatCartFeature.self]
}

@Suite("Debug report format 1")
struct DebugReportFormatTests {
    /// 2026-11-23T10:15:01.000123Z.
    private static let start = Date(timeIntervalSince1970: 1_795_428_901.000_123)

    /// A system with stacks and focus logging whose timeline holds every outcome kind, every source kind and
    /// one action still running, on a clock at `start`.
    private struct Fixture {
        let scheduler = TestScheduler(startDate: DebugReportFormatTests.start)
        let system: ActuateSystem
        let stacks = ActionStacksPlugin()
        let holder = FormatHolder()

        init() throws {
            system = try ActuateSystem.setup(
                group: FormatShopFeatures.self,
                dispatching: .isolated(
                    scheduler: scheduler,
                    diagnostics: RecordingDiagnostics(),
                    loggerFactory: FocusLogging(backend: NoOpLogBackend())
                ),
                configuration: ActuateConfiguration(plugins: [stacks])
            )
        }

        func perform(_ input: String, source: ActionSource = .application) async {
            _ = await system.mainSession.perform(FormatCartFeature.add, input: input, presenter: holder, source: source)
        }

        func fill() async {
            scheduler.advance(by: .microseconds(1_500))
            await perform("sku-42")
            await perform("decline", source: .openURL)
            await perform("close", source: .continueActivity(type: "com.example.cart"))
            await perform("done", source: .intent)
            await perform("cancel")
            system.mainSession.perform(FormatCartFeature.add, input: "hold", presenter: holder, completion: nil)
            for _ in 0..<10_000 where holder.held.withLock({ $0 }) == nil { await Task.yield() }
        }
    }

    private func jsonObject(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("the report carries formatVersion 1, and each timeline entry the fields of the format")
    func writesFormatOne() async throws {
        let fixture = try Fixture()
        await fixture.fill()
        let document = try jsonObject(try fixture.system.debugReport.jsonData())
        #expect(document["formatVersion"] as? Int == 1)
        #expect(document["generatedAt"] as? String == "2026-11-23T10:15:01.001623Z")
        #expect(document["sections"] as? [String] == ["timeline", "actionStacks", "focusLogs", "availability"])

        let timeline = try #require(document["timeline"] as? [String: Any])
        #expect(timeline["maxEntries"] as? Int == Timeline.defaultMaxEntries)
        let entries = try #require(timeline["entries"] as? [[String: Any]])
        try #require(entries.count == 6)
        let first = entries[0]
        #expect(first["requestID"] as? Int == 1)
        #expect(first["sessionName"] as? String == "main")
        #expect(first["featureName"] as? String == "Format Cart")
        #expect(first["featurePath"] as? String == "FormatShopFeatures/FormatCartFeature")
        #expect(first["actionName"] as? String == "Add To Cart")
        #expect(first["queueLabel"] as? String == "actuate.tests.format-queue")
        #expect(first["inputDescription"] as? String == "sku-42")
        #expect(first["userInitiated"] as? Bool == true)
        #expect(first["startDate"] as? String == "2026-11-23T10:15:01.001623Z")
        #expect(first["startOffsetNanoseconds"] as? Int == 1_500_000)
        #expect(first["durationNanoseconds"] as? Int == 0)

        let sources = entries.map { $0["source"] as? [String: String] }
        #expect(
            sources == [
                ["kind": "application"], ["kind": "openURL"],
                ["kind": "continueActivity", "activityType": "com.example.cart"], ["kind": "intent"],
                ["kind": "application"], ["kind": "application"],
            ]
        )
        let outcomes = entries.map { $0["outcome"] as? [String: String] }
        #expect(
            outcomes == [
                ["kind": "success"], ["kind": "failure", "message": "Card declined"],
                ["kind": "failureWithFeatureTermination", "message": "Card declined"],
                ["kind": "successWithFeatureTermination"], ["kind": "cancelled"], nil,
            ]
        )
        #expect(entries[5]["durationNanoseconds"] == nil, "a running action has no duration")
        #expect(entries[5]["outcome"] == nil, "a running action has no outcome")
        fixture.holder.held.withLock { $0 }?.completed(.success)
    }

    @Test("every date in the document is ISO 8601 in UTC with exactly six fractional digits")
    func everyDateHasSixDigits() async throws {
        let fixture = try Fixture()
        await fixture.fill()
        fixture.scheduler.advance(by: .seconds(1))
        fixture.holder.held.withLock { $0 }?.completed(.successWithFeatureTermination)
        let document = try jsonObject(try fixture.system.debugReport.jsonData())
        var dates: [String] = []
        collectDates(in: document, into: &dates)
        #expect(dates.count >= 12, "the timeline, stacks and report dates: \(dates)")
        for date in dates {
            #expect(date.wholeMatch(of: #/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z/#) != nil, "\(date)")
        }
    }

    private func collectDates(in value: Any, key: String = "", into dates: inout [String]) {
        if let object = value as? [String: Any] {
            for (key, value) in object { collectDates(in: value, key: key, into: &dates) }
        } else if let array = value as? [Any] {
            for element in array { collectDates(in: element, key: key, into: &dates) }
        } else if let text = value as? String, key.hasSuffix("Date") || key.hasSuffix("At") || key == "date" {
            dates.append(text)
        }
    }

    @Test("the public decoder reads the report back: timeline, stacks, sections and dates")
    func decodesBack() async throws {
        let fixture = try Fixture()
        await fixture.fill()
        let report = try DebugReportDecoder().decodeReport(from: fixture.system.debugReport.jsonData())
        #expect(report.formatVersion == 1)
        #expect(abs(report.generatedAt.timeIntervalSince(fixture.scheduler.now())) < 1e-6)
        #expect(report.sectionNames == ["timeline", "actionStacks", "focusLogs", "availability"])
        #expect(report.timeline?.entries == fixture.system.timeline.snapshot())
        let firstStart = try #require(report.timeline?.entries.first?.startDate)
        #expect(abs(firstStart.timeIntervalSince(fixture.scheduler.now())) < 1e-6)
        #expect(report.actionStacks == fixture.stacks.snapshot())
        let availability = try report.section("availability", as: [FeatureAvailabilityReport].self)
        #expect(
            availability?.map(\.path.description) == ["FormatShopFeatures", "FormatShopFeatures/FormatCartFeature"]
        )
        #expect(report.sectionJSON("focusLogs") != nil)
        #expect(try report.section("missing", as: [String].self) == nil)
        #expect(throws: DebugReportDecodingError.self) { try report.section("availability", as: [String].self) }
        fixture.holder.held.withLock { $0 }?.completed(.success)
    }

    @Test("a timeline dump of before format 1 fails, saying it was written before format 1")
    func oldTimelineDumpFails() throws {
        let oldDump = Data(
            #"[{"requestID":1,"actionName":"Add","date":"2026-11-21T10:00:00Z","outcome":{"success":{}}}]"#.utf8
        )
        #expect(throws: DebugReportDecodingError.writtenBeforeFormat1) {
            try DebugReportDecoder().decodeTimeline(from: oldDump)
        }
        let oldReport = Data(#"{"generatedAt":"2026-11-21T10:00:00Z","sections":["timeline"],"timeline":[]}"#.utf8)
        #expect(throws: DebugReportDecodingError.writtenBeforeFormat1) {
            try DebugReportDecoder().decodeReport(from: oldReport)
        }
        #expect(
            DebugReportDecodingError.writtenBeforeFormat1.description
                .contains("written before format 1; re-create it with this version")
        )
    }

    @Test("a document of a newer format fails, naming both versions")
    func newerFormatFails() throws {
        let newer = Data(#"{"formatVersion":2,"generatedAt":"2030-01-01T00:00:00.000000Z","sections":[]}"#.utf8)
        #expect(throws: DebugReportDecodingError.newerFormat(found: 2, supported: 1)) {
            try DebugReportDecoder().decodeReport(from: newer)
        }
        let message = DebugReportDecodingError.newerFormat(found: 2, supported: 1).description
        #expect(message.contains("format 2") && message.contains("format 1"))
    }

    @Test(
        "bad documents fail with a clear error, never a crash",
        arguments: [
            ("not json", "notJSON"),
            (#"{"formatVersion":"one"}"#, "notADebugReport"),
            (#"{"formatVersion":1.5,"generatedAt":"x","sections":[]}"#, "notADebugReport"),
            (#"{"formatVersion":0,"generatedAt":"2026-01-01T00:00:00Z","sections":[]}"#, "notADebugReport"),
            (#"{"formatVersion":1,"sections":[]}"#, "notADebugReport"),
            (#"{"formatVersion":1,"generatedAt":"yesterday","sections":[]}"#, "notADebugReport"),
            (#"{"formatVersion":1,"generatedAt":"2026-01-01T00:00:00Z"}"#, "notADebugReport"),
            (#"{"formatVersion":1,"generatedAt":"2026-01-01T00:00:00Z","sections":["timeline"]}"#, "malformedSection"),
            (#"[1, 2]"#, "writtenBeforeFormat1"),
            (#""text""#, "notADebugReport"),
        ]
    )
    func badDocuments(json: String, expected: String) {
        do {
            _ = try DebugReportDecoder().decodeReport(from: Data(json.utf8))
            Issue.record("\(json) decoded")
        } catch let error as DebugReportDecodingError {
            #expect(error.description.hasPrefix("The "), "\(error)")
            #expect(kind(of: error) == expected, "\(error)")
        } catch {
            Issue.record("\(json) threw \(error), not a DebugReportDecodingError")
        }
    }

    private func kind(of error: DebugReportDecodingError) -> String {
        switch error {
        case .notJSON: "notJSON"
        case .notADebugReport: "notADebugReport"
        case .writtenBeforeFormat1: "writtenBeforeFormat1"
        case .newerFormat: "newerFormat"
        case .malformedSection: "malformedSection"
        }
    }

    @Test("a malformed entry names its JSON path")
    func malformedEntryNamesPath() throws {
        let entry = """
            {"requestID":1,"sessionName":"main","featureName":"Cart","featurePath":"Cart","actionName":"Add",
            "queueLabel":"q","inputDescription":"x","userInitiated":true,"source":{"kind":"application"},
            "startDate":"2026-02-30T10:00:00.000000Z","startOffsetNanoseconds":0}
            """
        let dump = Data(#"{"formatVersion":1,"maxEntries":10,"entries":[\#(entry)]}"#.utf8)
        #expect {
            try DebugReportDecoder().decodeTimeline(from: dump)
        } throws: { error in
            guard case DebugReportDecodingError.malformedSection("timeline", let reason) = error else { return false }
            return reason.contains("entries[0].startDate") && reason.contains("2026-02-30T10:00:00.000000Z")
        }
    }

    @Test(
        "dates read and write exactly to the microsecond, before 1970, on leap days and with offsets",
        arguments: [
            ("1969-12-31T23:59:59.999999Z", "1969-12-31T23:59:59.999999Z"),
            ("2024-02-29T12:00:00.5Z", "2024-02-29T12:00:00.500000Z"),
            ("2026-11-23T10:15:01.000123Z", "2026-11-23T10:15:01.000123Z"),
            ("2026-11-23T12:15:01.000123+02:00", "2026-11-23T10:15:01.000123Z"),
            ("2026-11-23T10:15:01Z", "2026-11-23T10:15:01.000000Z"),
            ("2100-01-01T00:00:00.0000004Z", "2100-01-01T00:00:00.000000Z"),
            ("2000-03-01T00:00:00.999999Z", "2000-03-01T00:00:00.999999Z"),
        ]
    )
    func dateRoundTrip(written: String, canonical: String) throws {
        let entry = """
            {"requestID":1,"sessionName":"main","featureName":"Cart","featurePath":"Cart","actionName":"Add",
            "queueLabel":"q","inputDescription":"x","userInitiated":true,"source":{"kind":"intent"},
            "startDate":"\(written)","startOffsetNanoseconds":0}
            """
        let dump = Data(#"{"formatVersion":1,"maxEntries":10,"entries":[\#(entry)]}"#.utf8)
        let decoded = try DebugReportDecoder().decodeTimeline(from: dump)
        let reencoded = try jsonObject(try JSONEncoder().encode(decoded))
        let entries = try #require(reencoded["entries"] as? [[String: Any]])
        #expect(entries.first?["startDate"] as? String == canonical)
    }
}

import ActuateTesting
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuatePlugins
@testable import ActuateReporting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The API key, and the Authorization header that carries it, must appear in no output: not in logs, timeline
// dumps, action stacks, debug reports, error messages, uploader status, dead letters or files on disk. These
// tests configure a known key, make uploads to the loopback collector fail in every way it can, and search
// everything the system produced for the key.

private let secretTestsQueue = DispatchQueue(label: "actuate.tests.secrets")

/// Uploads what the store holds through the uploader of its input, and fails with the uploader's status when the
/// last request was not acknowledged, so that upload errors reach the timeline, stacks, logs and debug report.
private final class UploadNowAction: AsyncAction {
    typealias InputType = UploadNowInput
    static var queue: DispatchQueue { secretTestsQueue }

    static func perform(context: ActionContext<UploadNowInput>, presenter: Void) async throws -> ActionPerformOutcome {
        let uploader = context.input.uploader
        await uploader.flushNow()
        await uploader.waitUntilIdle()
        let status = uploader.status
        context.logs.production.warning("upload status: \(status)")
        context.logs.development.debug("transport: \(context.input.transport), status: \(String(reflecting: status))")
        guard let result = status.lastResult, result.statusCode.map({ (200..<300).contains($0) }) != true else {
            return .success
        }
        return .failure(error: UploadAttemptError(status: status))
    }
}

/// An error that describes the uploader's whole status, with `String(describing:)`.
private struct UploadAttemptError: Error {
    var status: UploaderStatus
}

private struct UploadNowInput: Loggable {
    var uploader: EventUploader
    var transport: HTTPEventTransport
    var loggingDescription: String { "upload through \(transport)" }
}

private final class UploadFeature: Feature {
    static let uploadNow = action(UploadNowAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(uploadNow)
    }
}

/// A key no other text could contain by chance.
private func makeKey() -> String {
    "sk_live_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
}

/// Every file under `directory`, as text (bytes that are not UTF-8 become replacement characters).
private func filesAsText(under directory: URL) -> [(String, String)] {
    guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
        return []
    }
    var files: [(String, String)] = []
    for case let url as URL in walker {
        guard let data = FileManager.default.contents(atPath: url.path) else { continue }
        files.append(("file \(url.lastPathComponent)", String(decoding: data, as: UTF8.self)))
    }
    return files
}

@Suite("Secrets never leak")
struct SecretLeakTests {
    @Test("the API key is in no log, dump, report, error, status, dead letter or file when uploads fail every way")
    func apiKeyInNoOutput() async throws {
        let key = makeKey()
        // The key, and a fragment of it, so that a truncated key is caught too.
        let needles = [key, String(key.dropFirst(8).prefix(12))]
        let directory = TemporaryDirectory()
        let scheduler = TestScheduler()
        let store = try FileEventStore(
            directory: directory.appending("events"),
            configuration: FileEventStoreConfiguration(
                durability: .groupCommit(interval: .seconds(3_600)),
                scheduler: scheduler
            )
        )
        let reporterErrors = Mutex<[ReportingError]>([])
        let identity = Identity(storage: FileIdentityStorage(directory: directory.appending("identity")))
        // Two drops: URLSession resends a request whose kept-alive connection dropped on a fresh connection, and
        // the second drop, on that fresh connection, is the connection failure.
        let script = [
            "401", "403", "500", "503 Retry-After: 1", "429", "413", "400", "drop", "drop", "400", "400", "slow",
        ]

        try await TestCollector.with(script: script, slowSeconds: 3) { collector in
            let transport = try HTTPEventTransport(endpoint: collector.batchURL, apiKey: key, timeout: .seconds(1))
            let uploader = EventUploader(
                store: store,
                transport: transport,
                scheduler: scheduler,
                configuration: EventUploader.Configuration(flushPolicies: [.manual], maxBatchCount: 4, random: { 0.5 })
            )
            let reporter = Reporter(
                store: store,
                delivery: uploader,
                scheduler: scheduler,
                identity: identity,
                configuration: ReporterConfiguration(onError: { error in reporterErrors.withLock { $0.append(error) } })
            )
            let diagnostics = RecordingDiagnostics()
            let logBackend = InMemoryLogBackend()
            let focus = FocusLogging(
                backend: logBackend,
                developmentDefaultLevel: .debug,
                productionDefaultLevel: .debug
            )
            let dispatcher = ActionDispatcher(scheduler: scheduler, diagnostics: diagnostics, loggerFactory: focus)
            let timeline = Timeline(maxEntries: 100)
            let stacks = ActionStacksPlugin()
            let analytics = RecordingAnalyticsProvider()
            dispatcher.add(plugin: timeline)
            dispatcher.add(plugin: stacks)
            dispatcher.add(plugin: AnalyticsPlugin(provider: analytics))
            dispatcher.add(plugin: ReportingPlugin(reporter: reporter))
            let session = ActionSession(named: "uploads", dispatcher: dispatcher)
            let input = UploadNowInput(uploader: uploader, transport: transport)

            for index in 0..<12 {
                reporter.record(content: .executed, for: .sampleAction(id: index, name: "Banner \(index)"))
            }
            let results = uploader.results()
            var outcomes: [ActionPerformOutcome] = []
            for _ in 0..<40 {
                outcomes.append(await session.performDetailed(UploadFeature.uploadNow, input: input, presenter: ()))
                guard let next = uploader.status.nextAttemptUptime else { break }
                scheduler.advance(by: next - scheduler.uptime())
                await uploader.waitUntilIdle()
            }

            // The failures really happened, and the key really was sent where it belongs.
            let stats = try await collector.stats()
            #expect(stats.remainingScript == 0)
            #expect(
                Array(stats.log.prefix(script.count).map(\.status))
                    == [401, 403, 500, 503, 429, 413, 400, nil, nil, 400, 400, 200]
            )
            #expect(stats.lastAuthorization == "Bearer \(key)")
            #expect(outcomes.contains { !$0.simplifiedOutcome.isSuccess })
            #expect(try store.deadLetters().isEmpty == false)

            var uploadResults: [UploadResult] = []
            var iterator = results.makeAsyncIterator()
            for _ in 0..<uploader.status.requestsSent {
                guard let result = await iterator.next() else { break }
                uploadResults.append(result)
            }
            #expect(uploadResults.contains { $0.failure?.kind == .timedOut })
            #expect(uploadResults.contains { $0.failure?.kind == .connectionLost })

            let report = DebugReport(reportables: [timeline, stacks, focus], dispatcher: dispatcher)
            try FileManager.default.createDirectory(
                at: directory.appending("report"),
                withIntermediateDirectories: true
            )
            let reportFiles = try report.write(to: directory.appending("report"))
            var dumpedStatus = ""
            dump(uploader.status, to: &dumpedStatus)
            var dumpedTransport = ""
            dump(transport, to: &dumpedTransport)
            var outputs: [(String, String)] = [
                ("transport description", "\(transport) \(String(reflecting: transport)) \(dumpedTransport)"),
                ("uploader status", "\(uploader.status) \(String(reflecting: uploader.status)) \(dumpedStatus)"),
                ("upload results", String(reflecting: uploadResults)),
                ("action outcomes", String(reflecting: outcomes)),
                ("dead letters", String(reflecting: try store.deadLetters())),
                ("reporter lastError", String(describing: reporter.lastError)),
                ("reporter errors", String(reflecting: reporterErrors.withLock { $0 })),
                ("identity error", String(describing: identity.lastError)),
                ("timeline text", timeline.textDump()),
                ("timeline JSON", String(decoding: try timeline.jsonDump(), as: UTF8.self)),
                ("action stacks", stacks.textDump() + String(decoding: try stacks.jsonDump(), as: UTF8.self)),
                ("analytics events", String(reflecting: analytics.events)),
                ("log messages", logBackend.messages.joined(separator: "\n")),
                ("diagnostics", String(reflecting: diagnostics.diagnostics)),
                ("debug report", report.text() + String(decoding: try report.jsonData(), as: UTF8.self)),
                ("stored events", String(reflecting: try store.fetch(count: .max, maxBytes: .max))),
            ]
            try store.close()
            outputs += filesAsText(under: directory.url)
            #expect(outputs.contains { $0.0 == "file \(reportFiles.json.lastPathComponent)" })
            #expect(outputs.contains { $0.0 == "file dead-letters.journal" })
            for (name, text) in outputs {
                for needle in needles {
                    #expect(!text.contains(needle), "the API key is in the \(name): \(text.prefix(2_000))")
                }
                #expect(!text.contains("Bearer"), "an Authorization header is in the \(name): \(text.prefix(2_000))")
            }
            // Controls: the outputs searched do describe the failures.
            #expect(timeline.textDump().contains("HTTP 401"))
            #expect(logBackend.messages.contains { $0.contains("timedOut") })
        }
    }

    @Test("a redirect is not followed: the key never reaches another server, and never travels over plain HTTP")
    func redirectsNotFollowed() async throws {
        let key = makeKey()
        try await TestCollector.with { elsewhere in
            let redirects = [
                "307 Location: \(elsewhere.batchURL.absoluteString)",
                "308 Location: http://example.com/v1/batch",
                "302 Location: \(elsewhere.batchURL.absoluteString)",
            ]
            try await TestCollector.with(script: redirects) { collector in
                let transport = try HTTPEventTransport(endpoint: collector.batchURL, apiKey: key, timeout: .seconds(5))
                for expected in [307, 308, 302] {
                    let response = await transport.send(EventBatch(events: makeEvents(2), sentAt: Date()))
                    guard case .http(let http) = response else {
                        Issue.record("expected the \(expected) itself, got \(response)")
                        continue
                    }
                    #expect(http.statusCode == expected)
                }
                let elsewhereStats = try await elsewhere.stats()
                // A followed 307 would arrive there as a request (without its body, so counted as malformed).
                #expect(elsewhereStats.requests == 0)
                #expect(elsewhereStats.malformed == 0)
                #expect(elsewhereStats.lastAuthorization == nil)
                #expect(try await collector.stats().requests == 3)
            }
        }
    }

    @Test("plain HTTP is refused with a clear error except to loopback hosts, which are accepted")
    func plainHTTPOnlyToLoopback() async throws {
        let key = makeKey()
        let refused = #expect(throws: HTTPEventTransportError.self) {
            try HTTPEventTransport(endpoint: URL(string: "http://example.com/v1/batch")!, apiKey: key)
        }
        #expect(refused == .insecureEndpoint("http://example.com/v1/batch"))
        let message = refused.map { String(describing: $0) } ?? ""
        #expect(message.contains("http://example.com/v1/batch uses plain HTTP"))
        #expect(message.contains("use https"))
        #expect(!message.contains(key))

        for text in ["http://127.0.0.1:8080/v1/batch", "http://[::1]:8080/v1/batch", "http://localhost:8080/v1/batch"] {
            let url = try #require(URL(string: text))
            #expect(throws: Never.self, "\(text) must be accepted") {
                _ = try HTTPEventTransport(endpoint: url, apiKey: key)
            }
        }

        // A loopback collector named `localhost` receives the batch and the key.
        try await TestCollector.with { collector in
            let url = try #require(URL(string: "http://localhost:\(collector.port)/v1/batch"))
            let transport = try HTTPEventTransport(endpoint: url, apiKey: key, timeout: .seconds(5))
            let response = await transport.send(EventBatch(events: makeEvents(1), sentAt: Date()))
            guard case .http(let http) = response else {
                Issue.record("expected the collector's answer, got \(response)")
                return
            }
            #expect(http.statusCode == 200)
            #expect(try await collector.stats().lastAuthorization == "Bearer \(key)")
        }
    }

    @Test("a private value in a reported action's error is redacted in the stored event")
    func redactedInReportedEvents() async throws {
        let secret = "card-4111-1111-1111-1111"
        let store = MemoryEventStore(maxEvents: 100)
        let scheduler = TestScheduler()
        let reporter = Reporter(
            store: store,
            delivery: nil,
            scheduler: scheduler,
            identity: Identity(storage: MemoryIdentityStorage())
        )
        let dispatcher = ActionDispatcher(scheduler: scheduler, diagnostics: RecordingDiagnostics())
        dispatcher.add(plugin: ReportingPlugin(reporter: reporter))
        let session = ActionSession(named: "payments", dispatcher: dispatcher)

        let outcome = await session.perform(
            LeakCheckPaymentFeature.pay,
            input: LeakCheckPaymentInput(card: Redacted(secret))
        )
        #expect(!outcome.isSuccess)
        let events = try store.fetch(count: .max, maxBytes: .max)
        let reported = try #require(events.first { $0.type == "payment" })
        #expect(reported.properties["error"] == "PaymentDeclinedError(card: <redacted>)")
        #expect(!String(reflecting: events).contains(secret))
    }
}

private struct LeakCheckPaymentInput: Loggable {
    var card: Redacted<String>
    var loggingDescription: String { "card \(card.loggingDescription)" }
}

/// Not `Loggable`, so the reporting plugin describes it with `String(describing:)`.
private struct PaymentDeclinedError: Error {
    var card: Redacted<String>
}

private final class LeakCheckPayAction: Action, ReportedAction {
    typealias InputType = LeakCheckPaymentInput
    static var queue: DispatchQueue { secretTestsQueue }
    static var reportEventType: ReportEventType { "payment" }

    static func perform(
        context: ActionContext<LeakCheckPaymentInput>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        completion.completedSync(.failure(error: PaymentDeclinedError(card: context.input.card)))
    }
}

private final class LeakCheckPaymentFeature: Feature {
    static let pay = action(LeakCheckPayAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(pay)
    }
}

import ActuateTesting
import Dispatch
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins
@testable import ActuateReporting

// A failing action whose error carries a card number, performed with every plugin installed; the card number
// must appear in no dump, log, event, diagnostic or file.

private let cardNumber = "4111111111111111"

private enum RedactionQueue {
    static let queue = DispatchQueue(label: "actuate.tests.redaction")
}

/// An error that redacts itself by being `Loggable`.
private struct LoggableCardError: Error, Loggable {
    var number: String
    var loggingDescription: String { "card declined" }
}

/// An error that is not `Loggable` but keeps its secret in a `Redacted` field.
private struct GatewayError: Error {
    var code: Int
    var card: Redacted<String>
}

enum RedactionSecret: String, Sendable, Loggable {
    case loggable
    case redactedField

    var loggingDescription: String { rawValue }

    var error: any Error {
        switch self {
        case .loggable: LoggableCardError(number: cardNumber)
        case .redactedField: GatewayError(code: 402, card: Redacted(cardNumber))
        }
    }
}

/// Fails with the secret error, logs its outcome, completes twice (so the second outcome reaches the
/// diagnostics), and is tracked by analytics, reporting and activities.
private final class PayWithCardAction: Action, ReportedAction {
    typealias InputType = RedactionSecret
    static var queue: DispatchQueue { RedactionQueue.queue }
    static var analyticsID: String? { "pay" }
    static var activityEligibility: Set<ActivityEligibility> { [.handoff] }

    static func perform(
        context: ActionContext<RedactionSecret>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        let outcome = ActionPerformOutcome.failureWithFeatureTermination(error: context.input.error)
        context.logs.production.error("payment failed: \(outcome)")
        context.logs.development.error("payment failed: \(outcome.simplifiedOutcome)")
        let status = completion.completedSync(outcome)
        _ = completion.completedSync(.failure(error: context.input.error))
        return status
    }
}

/// Succeeds, so that the activities plugin asks it for an activity, and then throws the secret error.
private final class RememberCardAction: Action {
    typealias InputType = RedactionSecret
    static var queue: DispatchQueue { RedactionQueue.queue }
    static var activityEligibility: Set<ActivityEligibility> { [.handoff] }

    static func prepareActivity(_ activity: ActivityBuilder<RememberCardAction>) throws {
        throw activity.input.error
    }

    static func perform(
        context: ActionContext<RedactionSecret>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        completion.completedSync(.success)
    }
}

private final class WalletFeature: Feature {
    static let pay = action(PayWithCardAction.self)
    static let remember = action(RememberCardAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(pay)
        actions.declare(remember)
    }
}

@Suite("Secret redaction")
struct SecretRedactionTests {
    @Test(
        "a secret in a failing action's error reaches no dump, log, event, diagnostic or file",
        arguments: [RedactionSecret.loggable, .redactedField]
    )
    func noSecretAnywhere(secret: RedactionSecret) async throws {
        let scheduler = TestScheduler()
        let diagnostics = RecordingDiagnostics()
        let logBackend = InMemoryLogBackend()
        let logging = FocusLogging(backend: logBackend)
        let dispatcher = ActionDispatcher(scheduler: scheduler, diagnostics: diagnostics, loggerFactory: logging)
        let timeline = Timeline(maxEntries: 10)
        let stacks = ActionStacksPlugin()
        let analytics = RecordingAnalyticsProvider()
        let store = MemoryEventStore()
        let reporter = Reporter(
            store: store,
            delivery: nil,
            scheduler: scheduler,
            identity: Identity(storage: MemoryIdentityStorage())
        )
        let activities = RecordingActivityPublisher()
        let plugins: [any ActionDispatchPlugin] = [
            timeline, stacks, AnalyticsPlugin(provider: analytics), ReportingPlugin(reporter: reporter),
            ActivitiesPlugin(publisher: activities, diagnostics: diagnostics, activityTypePrefix: "test"),
        ]
        for plugin in plugins { dispatcher.add(plugin: plugin) }
        let stream = dispatcher.events(bufferingPolicy: .unbounded)
        let session = ActionSession(named: "wallet", dispatcher: dispatcher)

        let detailed = await session.performDetailed(WalletFeature.pay, input: secret, presenter: ())
        let simplified = await session.perform(WalletFeature.pay, input: secret, presenter: ())
        let remembered = await session.perform(WalletFeature.remember, input: secret, presenter: ())
        #expect(remembered.isSuccess)
        #expect(detailed.errorDescription != nil)

        var streamed: [String] = []
        for await event in stream {
            if case .completed(let request, let outcome) = event {
                streamed.append("\(request) \(outcome) \(String(reflecting: outcome))")
                if streamed.count == 3 { break }
            }
        }

        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("actuate-redaction-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try DebugReport(reportables: [timeline, stacks, logging]).write(to: directory)
        let encoder = JSONEncoder()
        let texts: [(String, String)] = [
            ("timeline text", timeline.textDump()),
            ("timeline JSON", String(decoding: try timeline.jsonDump(), as: UTF8.self)),
            ("stacks text", stacks.textDump()),
            ("stacks JSON", String(decoding: try stacks.jsonDump(), as: UTF8.self)),
            ("focus log backend", logBackend.events.map(\.formatted).joined(separator: "\n")),
            ("focus recent events", logging.recentEvents().map(\.message).joined(separator: "\n")),
            ("analytics events", String(decoding: try encoder.encode(analytics.events), as: UTF8.self)),
            ("analytics descriptions", analytics.events.map { "\($0)" }.joined(separator: "\n")),
            (
                "reporting events",
                String(decoding: try encoder.encode(store.fetch(count: 100, maxBytes: .max)), as: UTF8.self)
            ),
            ("diagnostics", diagnostics.diagnostics.map(\.description).joined(separator: "\n")),
            ("debug report JSON", try String(contentsOf: files.json, encoding: .utf8)),
            ("debug report text", try String(contentsOf: files.text, encoding: .utf8)),
            ("outcomes", "\(detailed) \(simplified) \(String(reflecting: detailed)) \(String(reflecting: simplified))"),
            ("dispatch events", streamed.joined(separator: "\n")),
        ]
        for (name, text) in texts {
            #expect(!text.contains(cardNumber), "the card number reached the \(name): \(text)")
            #expect(!text.isEmpty, "the \(name) recorded nothing, so the search proves nothing")
        }

        let expectedMessage = secret == .loggable ? "card declined" : "GatewayError(code: 402, card: <redacted>)"
        #expect(timeline.snapshot().first?.outcome == .failureWithFeatureTermination(message: expectedMessage))
        #expect(analytics.events.last { $0.phase == .ended }?.outcome == .failure(errorDescription: expectedMessage))
        #expect(logBackend.messages.contains("payment failed: failure (feature terminated): \(expectedMessage)"))
        #expect(diagnostics.kinds.contains(.completedTwice))
        #expect(diagnostics.kinds.contains(.pluginFailure))
        #expect(
            try store.fetch(count: 100, maxBytes: .max).contains { $0.properties["error"] == .string(expectedMessage) }
        )
    }

    @Test("a Redacted value prints as <redacted> however it is described")
    func redactedNeverPrints() {
        let value = Redacted(cardNumber)
        let error = GatewayError(code: 1, card: value)
        var dumped = ""
        dump(error, to: &dumped)
        let descriptions = [
            "\(value)", String(describing: value), String(reflecting: value), "\(error)", String(reflecting: error),
            dumped, "\(Mirror(reflecting: value).children.map(\.value))",
        ]
        for description in descriptions {
            #expect(!description.contains(cardNumber), "\(description)")
        }
        #expect(value.value == cardNumber)
    }
}

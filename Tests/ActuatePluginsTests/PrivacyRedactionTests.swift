import ActuateTesting
import Dispatch
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins

// Inputs marked private (`Redacted`) must stay out of every text the framework produces: the timeline, action
// stacks, analytics events, focus logs and the debug report, including when app code describes them by accident
// (string interpolation, `String(describing:)`, an error type that is not `Loggable`).

private let secretPassword = "correct-horse-7c41d9"
private let secretCardNumber = "4111-1111-1111-1111"

/// A sign-in input whose password is private.
private struct PrivateSignInInput: Loggable {
    var email: String
    var password: Redacted<String>
    var loggingDescription: String { "\(email), password \(password.loggingDescription)" }
}

/// An error that is not `Loggable`, so that it is described with `String(describing:)`, and carries a private value.
private struct CardRejectedError: Error {
    var cardNumber: Redacted<String>
    var attempt: Int
}

private let privacyQueue = DispatchQueue(label: "actuate.tests.privacy")

/// Uses the private values as app code might, carelessly: it logs them by interpolation, puts one in an
/// analytics attribute, and fails with an error that holds one.
private final class PrivateSignInAction: Action {
    typealias InputType = PrivateSignInInput
    static var queue: DispatchQueue { privacyQueue }
    static var analyticsID: String? { "private-sign-in" }

    static func analyticsAttributes<F: FeatureDefinition>(
        forRequest request: ActionRequest<F, PrivateSignInAction>
    ) -> [String: AnalyticsValue]? {
        ["password": .string("\(request.context.input.password)")]
    }

    static func perform(
        context: ActionContext<PrivateSignInInput>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        context.logs.development.debug("input \(context.input), password \(context.input.password)")
        context.logs.production.error("sign-in refused: \(String(describing: context.input.password))")
        // The body itself sees the real value.
        guard context.input.password.value == secretPassword else { return completion.completedSync(.success) }
        let error = CardRejectedError(cardNumber: Redacted(secretCardNumber), attempt: 2)
        return completion.completedSync(.failureWithFeatureTermination(error: error))
    }
}

private final class PrivacyFeature: Feature {
    static let signIn = action(PrivateSignInAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(signIn)
    }
}

@Suite("Privacy: Redacted values")
struct PrivacyRedactionTests {
    @Test("Redacted shows no value through description, debugDescription, interpolation, mirror or dump")
    func redactedDescriptions() {
        let value = Redacted(secretPassword)
        var dumped = ""
        dump(value, to: &dumped)
        let texts = [
            value.loggingDescription, value.description, value.debugDescription, "\(value)", String(describing: value),
            String(reflecting: value), dumped, String(describing: Mirror(reflecting: value).children.map(\.value)),
            String(describing: CardRejectedError(cardNumber: value, attempt: 1)),
            String(reflecting: CardRejectedError(cardNumber: value, attempt: 1)),
        ]
        for text in texts {
            #expect(!text.contains(secretPassword), "\(text)")
        }
        #expect(value.value == secretPassword)
        #expect("\(value)" == "<redacted>")
        #expect(String(describing: CardRejectedError(cardNumber: value, attempt: 1)).contains("attempt: 1"))
    }

    @Test("a private input and a private value in an error reach no timeline, stack, analytics event, log or report")
    func redactedEverywhere() async throws {
        let scheduler = TestScheduler()
        let diagnostics = RecordingDiagnostics()
        let logBackend = InMemoryLogBackend()
        let focus = FocusLogging(
            backend: logBackend,
            developmentDefaultLevel: .debug,
            productionDefaultLevel: .debug
        )
        let dispatcher = ActionDispatcher(scheduler: scheduler, diagnostics: diagnostics, loggerFactory: focus)
        let timeline = Timeline(maxEntries: 10)
        let stacks = ActionStacksPlugin()
        let analytics = RecordingAnalyticsProvider()
        dispatcher.add(plugin: timeline)
        dispatcher.add(plugin: stacks)
        dispatcher.add(plugin: AnalyticsPlugin(provider: analytics))
        let session = ActionSession(named: "privacy", dispatcher: dispatcher)

        let outcome = await session.performDetailed(
            PrivacyFeature.signIn,
            input: PrivateSignInInput(email: "ada@example.com", password: Redacted(secretPassword)),
            presenter: ()
        )
        // The body saw the real password: it failed only because the password matched.
        #expect(outcome.terminatesFeature)

        let directory = FileManager.default.temporaryDirectory.appending(path: "actuate-privacy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let report = DebugReport(reportables: [timeline, stacks, focus], dispatcher: dispatcher)
        let files = try report.write(to: directory)

        var outputs: [(String, String)] = [
            ("timeline text", timeline.textDump()),
            ("timeline JSON", String(decoding: try timeline.jsonDump(), as: UTF8.self)),
            ("timeline entries", String(reflecting: timeline.snapshot())),
            ("action stacks text", stacks.textDump()),
            ("action stacks JSON", String(decoding: try stacks.jsonDump(), as: UTF8.self)),
            ("analytics events", String(reflecting: analytics.events)),
            ("analytics JSON", String(decoding: try JSONEncoder().encode(analytics.events), as: UTF8.self)),
            ("log messages", logBackend.messages.joined(separator: "\n")),
            ("recent log events", String(reflecting: focus.recentEvents())),
            ("debug report text", report.text()),
            ("debug report JSON", String(decoding: try report.jsonData(), as: UTF8.self)),
            ("debug report JSON file", try String(contentsOf: files.json, encoding: .utf8)),
            ("debug report text file", try String(contentsOf: files.text, encoding: .utf8)),
            ("diagnostics", String(reflecting: diagnostics.diagnostics)),
            ("outcome", String(describing: outcome) + String(reflecting: outcome)),
        ]
        var dumpedOutcome = ""
        dump(outcome, to: &dumpedOutcome)
        outputs.append(("dumped outcome", dumpedOutcome))
        for (name, text) in outputs {
            #expect(!text.contains(secretPassword), "the password is in the \(name): \(text)")
            #expect(!text.contains(secretCardNumber), "the card number is in the \(name): \(text)")
        }

        // Controls: each output did describe the request, with the private values replaced.
        let entry = try #require(timeline.snapshot().first)
        #expect(entry.inputDescription == "ada@example.com, password <redacted>")
        let ended = try #require(analytics.endedEvents.first)
        #expect(ended.attributes["password"] == "<redacted>")
        guard case .failure(let errorDescription) = ended.outcome else {
            Issue.record("expected a failure outcome, got \(String(describing: ended.outcome))")
            return
        }
        #expect(errorDescription.contains("CardRejectedError"))
        #expect(errorDescription.contains("<redacted>"))
        #expect(logBackend.messages.count == 2)
        #expect(logBackend.messages.allSatisfy { $0.contains("<redacted>") })
        #expect(report.text().contains("ada@example.com"))
    }
}

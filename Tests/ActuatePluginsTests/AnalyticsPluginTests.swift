import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins
@testable import ActuateTesting

@Suite("Analytics plugin")
struct AnalyticsPluginTests {
    /// A harness with an analytics plugin on its virtual clock, recording into `provider`.
    private struct Setup {
        let harness = ActionTestHarness()
        let provider = RecordingAnalyticsProvider()

        init() {
            harness.dispatcher.add(plugin: AnalyticsPlugin(provider: provider))
        }
    }

    private static let input = TrackedSignInInput(email: "ada@example.com", password: Redacted("hunter2"))

    @Test("a tracked action sends a begin and an end event with its attributes")
    func beginAndEnd() async throws {
        let setup = Setup()
        let outcome = await setup.harness.perform(AccountsFeature.signIn, input: Self.input, presenter: ())
        #expect(outcome.isSuccess)

        let events = setup.provider.events
        #expect(events.map(\.phase) == [.began, .ended])
        let began = try #require(events.first)
        let ended = try #require(events.last)
        #expect(began.analyticsID == "sign-in")
        #expect(began.actionName == "Tracked Sign In")
        #expect(began.sessionName == "test")
        #expect(began.featurePath == AccountsFeature.identifier)
        #expect(began.attributes == ["method": "password", "emailDomain": "example.com", "attempt": 1])
        #expect(began.outcome == nil)
        #expect(began.duration == nil)
        #expect(ended.requestID == began.requestID)
        #expect(ended.attributes == began.attributes)
        #expect(ended.outcome == .success)
        #expect(ended.terminatedFeature == false)
    }

    @Test("actions without an analytics ID send nothing")
    func untracked() async {
        let setup = Setup()
        await setup.harness.perform(AccountsFeature.untracked, input: .noInput, presenter: ())
        #expect(setup.harness.recorder.completedActionNames == ["Untracked"])
        #expect(setup.provider.events.isEmpty)
    }

    @Test(
        "the end event tells success, failure and cancellation apart",
        arguments: [
            (Ending.success, AnalyticsOutcome.success, false),
            (.successTerminating, .success, true),
            (.failure("wrong password"), .failure(errorDescription: "FixtureError: wrong password"), false),
            (.failureTerminating("locked"), .failure(errorDescription: "FixtureError: locked"), true),
            (.cancelled, .cancelled, false),
            (.secretFailure, .failure(errorDescription: "card declined"), false),
        ]
    )
    func outcomes(ending: Ending, expected: AnalyticsOutcome, terminated: Bool) async throws {
        let setup = Setup()
        var input = Self.input
        input.ending = ending
        await setup.harness.perform(AccountsFeature.signIn, input: input, presenter: ())
        let ended = try #require(setup.provider.endedEvents.first)
        #expect(ended.outcome == expected)
        #expect(ended.terminatedFeature == terminated)
    }

    @Test("the duration comes from the injected scheduler")
    func duration() async throws {
        let setup = Setup()
        let completer = DeferredCompleter()
        let pending = setup.harness.start(AccountsFeature.slow, input: .noInput, presenter: completer)
        await completer.held()
        #expect(setup.provider.beganEvents.count == 1)
        setup.harness.scheduler.advance(by: .milliseconds(2_500))
        #expect(completer.complete(.success))
        _ = await pending.outcome()

        let began = try #require(setup.provider.beganEvents.first)
        let ended = try #require(setup.provider.endedEvents.first)
        #expect(ended.duration == 2.5)
        #expect(ended.date.timeIntervalSince(began.date) == 2.5)
    }

    @Test("inputs are described only by their logging description, so redacted values stay redacted")
    func redaction() async throws {
        let setup = Setup()
        await setup.harness.perform(AccountsFeature.signIn, input: Self.input, presenter: ())
        #expect(Self.input.password.value == "hunter2", "the fixture must hold the secret")
        let events = setup.provider.events
        #expect(events.count == 2)
        for event in events {
            #expect(event.inputDescription == "ada@example.com, password <redacted>")
            let encoded = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
            #expect(!encoded.contains("hunter2"))
        }
    }

    @Test("a multiplex provider sends every event to each provider in order; no-op drops them")
    func multiplex() async {
        let first = RecordingAnalyticsProvider()
        let second = RecordingAnalyticsProvider()
        let harness = ActionTestHarness()
        let provider = MultiplexAnalyticsProvider([first, NoOpAnalyticsProvider(), second])
        harness.dispatcher.add(plugin: AnalyticsPlugin(provider: provider))
        await harness.perform(AccountsFeature.signIn, input: Self.input, presenter: ())
        #expect(first.events.map(\.phase) == [.began, .ended])
        #expect(second.events == first.events)
    }

    @Test("events encode to JSON and decode back")
    func codable() async throws {
        let setup = Setup()
        var input = Self.input
        input.ending = .failure("boom")
        await setup.harness.perform(AccountsFeature.signIn, input: input, presenter: ())
        let events = setup.provider.events
        let decoded = try JSONDecoder().decode([AnalyticsEvent].self, from: JSONEncoder().encode(events))
        #expect(decoded == events)
    }
}

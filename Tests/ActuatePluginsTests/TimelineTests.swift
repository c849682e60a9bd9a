import Foundation
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuatePlugins
@testable import ActuateTesting

@Suite("Timeline")
struct TimelineTests {
    @Test("keeps only the newest entries, evicting the oldest")
    func evictsOldest() async {
        let timeline = Timeline(maxEntries: 3)
        let harness = ActionTestHarness(plugins: [timeline])
        for name in ["a", "b", "c", "d", "e"] {
            _ = await harness.perform(GreetingFeature.sayHello, input: name, presenter: GreetingPresenter())
        }
        #expect(timeline.snapshot().map(\.inputDescription) == ["c", "d", "e"])
        #expect(timeline.snapshot().allSatisfy { $0.outcome == .success })
        #expect(timeline.maxEntries == 3)
    }

    @Test("an entry completing after it was evicted is ignored")
    func completionAfterEviction() async {
        let timeline = Timeline(maxEntries: 2)
        let harness = ActionTestHarness(plugins: [timeline])
        let probe = Probe()
        let pending = harness.start(GreetingFeature.probe, input: probe, presenter: GreetingPresenter())
        #expect(await eventually { probe.events.count == 1 })
        for _ in 0..<2 { _ = await harness.session.perform(GreetingFeature.noOp) }
        probe.completeKept(.success)
        _ = await pending.outcome()
        #expect(timeline.snapshot().map(\.actionName) == ["No Op", "No Op"])
    }

    @Test("a completion finds its own record behind newer ones on its queue, and one after clear() is ignored")
    func completionBehindNewerRecords() async {
        let timeline = Timeline(maxEntries: 5)
        let harness = ActionTestHarness(plugins: [timeline])
        let probe = Probe()
        let pending = harness.start(GreetingFeature.probe, input: probe, presenter: GreetingPresenter())
        #expect(await eventually { probe.events.count == 1 })
        for _ in 0..<2 { _ = await harness.session.perform(GreetingFeature.noOp) }
        probe.completeKept(.failure(error: TestError.boom))
        _ = await pending.outcome()
        #expect(timeline.snapshot().map(\.outcome) == [.failure(message: "boom"), .success, .success])

        let cleared = Probe()
        let clearedPending = harness.start(GreetingFeature.probe, input: cleared, presenter: GreetingPresenter())
        #expect(await eventually { cleared.events.count == 1 })
        timeline.clear()
        _ = await harness.session.perform(GreetingFeature.noOp)
        cleared.completeKept(.success)
        _ = await clearedPending.outcome()
        #expect(timeline.snapshot().map(\.actionName) == ["No Op"])
        #expect(timeline.snapshot().map(\.outcome) == [.success])
    }

    @Test("honours hideFromTimeline")
    func hidesActions() async {
        let harness = ActionTestHarness()
        _ = await harness.session.perform(GreetingFeature.hidden)
        _ = await harness.session.perform(GreetingFeature.noOp)
        #expect(harness.timeline.snapshot().map(\.actionName) == ["No Op"])
        #expect(harness.recorder.completedActionNames == ["Hidden", "No Op"])
    }

    @Test("records outcome and duration on the injected clock")
    func outcomeAndDuration() async throws {
        let harness = ActionTestHarness()
        let probe = Probe()
        let pending = harness.start(GreetingFeature.probe, input: probe, presenter: GreetingPresenter())
        #expect(await eventually { probe.events.count == 1 })
        #expect(harness.timeline.snapshot().first?.isComplete == false)
        harness.scheduler.advance(by: .milliseconds(1_500))
        probe.completeKept(.failure(error: TestError.boom))
        _ = await pending.outcome()
        let entry = try #require(harness.timeline.snapshot().first)
        #expect(entry.duration == 1.5)
        #expect(entry.outcome == .failure(message: "boom"))
        #expect(entry.featureName == "Greeting")
        #expect(entry.sessionName == "test")
    }

    @Test("inputs appear by their logging description, redacted where they ask")
    func redaction() async {
        let harness = ActionTestHarness()
        _ = await harness.session.perform(
            GreetingFeature.signIn,
            input: SignInInput(email: "ada@example.com", password: Redacted("hunter2"))
        )
        let entry = harness.timeline.snapshot().first
        #expect(entry?.inputDescription == "ada@example.com, password <redacted>")
        #expect(!harness.timeline.textDump().contains("hunter2"))
        #expect(try! !String(decoding: harness.timeline.jsonDump(), as: UTF8.self).contains("hunter2"))
    }

    @Test("the text dump shows each action with its outcome, failures marked")
    func textDump() async {
        let harness = ActionTestHarness()
        _ = await harness.perform(GreetingFeature.sayHello, input: "Ada", presenter: GreetingPresenter())
        _ = await harness.session.perform(GreetingFeature.failing)
        let lines = harness.timeline.textDump().split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("✓"))
        #expect(lines[0].contains("[test] Greeting › Say Hello (Ada) → success"))
        #expect(lines[1].hasPrefix("✗"))
        #expect(lines[1].contains("FAILED, feature terminated: boom"))
        #expect(Timeline(maxEntries: 1).textDump() == "(no actions)\n")
    }

    @Test("every dump shares one vocabulary: a mark and words per outcome, cancellations apart from failures")
    func oneVocabulary() {
        let outcomes: [TimelineOutcome] = [
            .success, .successWithFeatureTermination, .failure(message: "boom"),
            .failureWithFeatureTermination(message: "boom"), .cancelled,
        ]
        #expect(outcomes.map(\.symbol) == ["✓", "✓", "✗", "✗", "⊘"])
        #expect(
            outcomes.map(\.description) == [
                "success", "success, feature terminated", "FAILED: boom", "FAILED, feature terminated: boom",
                "cancelled",
            ]
        )
        #expect(outcomes.map(\.isCancellation) == [false, false, false, false, true])
    }

    @Test("the text dump numbers actions in the order they began, to the millisecond, with the request id apart")
    func textDumpOrderAndTime() {
        let start = Date(timeIntervalSince1970: 1_795_000_000.25)
        func entry(_ id: UInt64, at offset: UInt64, _ outcome: TimelineOutcome?) -> TimelineEntry {
            TimelineEntry(
                requestID: id,
                sessionName: "main",
                featureName: "Notes",
                featurePath: "Notes",
                actionName: "Action \(id)",
                queueLabel: "q",
                inputDescription: "none",
                userInitiated: true,
                source: .application,
                startDate: start.addingTimeInterval(Double(offset) / 1e9),
                startOffsetNanoseconds: offset,
                durationNanoseconds: outcome == nil ? nil : 1_000,
                outcome: outcome
            )
        }
        // With the system scheduler, ids come in blocks per queue: #65 began between #1 and #2.
        let lines = TimelineFormatter.text(
            for: [entry(2, at: 3_000_000, .cancelled), entry(1, at: 0, .success), entry(65, at: 1_500_000, nil)]
        ).split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("✓ #1 2026-11-18T"))
        #expect(lines[0].contains("T11:06:40.250Z [main]"))
        #expect(lines[1].hasPrefix("… #2 (request 65) "))
        #expect(lines[1].hasSuffix("→ running"))
        #expect(lines[2].hasPrefix("⊘ #3 (request 2) "))
        #expect(lines[2].contains("→ cancelled"))
    }

    @Test("the JSON dump round-trips through Codable")
    func jsonRoundTrip() async throws {
        let harness = ActionTestHarness()
        _ = await harness.perform(GreetingFeature.sayHello, input: "Ada", presenter: GreetingPresenter())
        _ = await harness.session.perform(GreetingFeature.failing)
        let decoded = try DebugReportDecoder().decodeTimeline(from: harness.timeline.jsonDump())
        #expect(decoded.entries == harness.timeline.snapshot())
        #expect(decoded.maxEntries == 1_000)
    }
}

import ActuateReporting
import ActuateTesting
import Foundation
import Testing

@Suite("Tracking consent")
struct ConsentTests {
    @Test("consent is granted by default, and absent server consent counts as granted")
    func defaults() {
        #expect(ReporterFixture().reporter.trackingConsent == .granted)
        #expect(ReporterConfiguration().initialConsent == .granted)
        #expect(TrackingConsent(serverValue: nil) == .granted)
        #expect(TrackingConsent(serverValue: true) == .granted)
        #expect(TrackingConsent(serverValue: false) == .denied)
    }

    @Test("while denied, content and session events are counted, not stored")
    func deniedSuppresses() {
        let fixture = ReporterFixture(consent: .denied)
        let outcome = fixture.reporter.record(content: .executed, for: banner)
        fixture.reporter.record(type: "newsletter_signup")
        fixture.reporter.startNewSession()

        #expect(outcome == .suppressed)
        #expect(fixture.events.isEmpty)
        // session_start, executed, newsletter_signup, then session_end and session_start.
        #expect(fixture.reporter.suppressedEventCount == 5)
        #expect(fixture.delivery.appendedCounts.isEmpty)
        #expect(fixture.reporter.currentSession != nil)
    }

    @Test("the force-tracking path stores an event while denied, tagged tracking_forced")
    func forceTracking() throws {
        let fixture = ReporterFixture(consent: .denied)
        let outcome = fixture.reporter.record(
            content: .target(href: "https://shop.example"),
            for: banner,
            forceTracking: true
        )

        let event = try #require(outcome.event)
        #expect(event.properties["tracking_forced"] == true)
        #expect(event.isTrackingForced)
        // The session start it caused is gated like any other session event.
        #expect(fixture.events.map(\.type) == ["target"])
        #expect(fixture.reporter.suppressedEventCount == 1)
        #expect(fixture.delivery.appendedCounts == [1])
    }

    @Test("an app cannot tag an event tracking_forced without the force-tracking path")
    func forgedTagIsStripped() throws {
        let fixture = ReporterFixture()
        let event = try #require(
            fixture.reporter.record(content: .executed, for: banner, properties: ["tracking_forced": true]).event
        )
        #expect(event.properties["tracking_forced"] == nil)
        #expect(
            fixture.reporter.record(content: .executed, for: banner, properties: ["tracking_forced": true]).event?
                .isTrackingForced == false
        )
    }

    @Test("withdrawing consent purges pending events recorded under consent and keeps forced ones")
    func withdrawalPurges() throws {
        let fixture = ReporterFixture()
        fixture.reporter.record(content: .executed, for: banner)
        let forced = try #require(fixture.reporter.record(content: .target(), for: banner, forceTracking: true).event)
        fixture.reporter.record(content: .close(dontShowSessions: 1), for: banner)
        #expect(fixture.events.count == 4)

        fixture.reporter.setTrackingConsent(.denied)

        #expect(fixture.reporter.trackingConsent == .denied)
        #expect(fixture.events == [forced])
        #expect(fixture.reporter.purgedEventCount == 3)

        fixture.reporter.record(content: .executed, for: banner)
        #expect(fixture.events == [forced])
        #expect(fixture.reporter.suppressedEventCount == 1)
    }

    @Test("granting consent again stores new events normally; suppressed ones stay gone")
    func grantingAgain() {
        let fixture = ReporterFixture(consent: .denied)
        fixture.reporter.record(content: .executed, for: banner)
        #expect(fixture.events.isEmpty)

        fixture.reporter.setTrackingConsent(.granted)
        let outcome = fixture.reporter.record(content: .target(), for: banner)

        #expect(outcome.event != nil)
        #expect(outcome.event?.isTrackingForced == false)
        #expect(fixture.events.map(\.type) == ["target"])
        #expect(fixture.reporter.purgedEventCount == 0)
        #expect(fixture.delivery.appendedCounts == [1])

        fixture.scheduler.advance(by: .seconds(60))
        fixture.reporter.startNewSession()
        #expect(fixture.events.map(\.type) == ["target", "session_end", "session_start"])
    }

    @Test("setting the same consent again purges nothing")
    func repeatedConsent() {
        let fixture = ReporterFixture()
        fixture.reporter.record(content: .executed, for: banner)
        fixture.reporter.setTrackingConsent(.granted)
        #expect(fixture.events.count == 2)

        fixture.reporter.setTrackingConsent(.denied)
        fixture.reporter.setTrackingConsent(.denied)
        #expect(fixture.reporter.purgedEventCount == 2)
    }

    @Test("a store that fails during the purge is reported, not a crash")
    func purgeFailure() {
        let fixture = ReporterFixture(store: UnreadableStore())
        fixture.reporter.setTrackingConsent(.denied)
        guard case .storeFailed(let operation, _) = fixture.reporter.lastError else {
            Issue.record("expected storeFailed, got \(String(describing: fixture.reporter.lastError))")
            return
        }
        #expect(operation.contains("purge"))
        #expect(fixture.errors.all.count == 1)
        #expect(fixture.reporter.trackingConsent == .denied)
    }
}

/// A store whose reads fail.
final class UnreadableStore: EventStore {
    func append(_ event: ReportEvent) throws {}
    func fetch(count: Int, maxBytes: Int) throws -> [ReportEvent] {
        throw EventStoreError.ioFailed(path: "/events", reason: "unreadable")
    }
    func remove(ids: Set<ReportEvent.ID>) throws {}
    func moveToDeadLetter(ids: Set<ReportEvent.ID>, reason: String) throws {}
    func deadLetters() throws -> [DeadLetter] { throw EventStoreError.closed }
    func count() throws -> Int { 1 }
    var droppedEventCount: Int { 0 }
}

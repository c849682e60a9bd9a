import Actuate
import ActuateTesting
import Foundation
import Testing

@testable import ActuateReporting

/// Issue 47, point 6: "A relaunch opens a new reporting session without closing the last one." Each test runs two
/// reporters on one store, as two launches of an app.
@Suite("Reporting sessions across launches")
struct ReportingSessionRelaunchTests {
    /// One launch: a reporter on `store`, its clock starting at `start`.
    static func launch(_ store: any EventStore, at start: Date) -> (Reporter, TestScheduler) {
        let scheduler = TestScheduler(startDate: start)
        let reporter = Reporter(
            store: store,
            delivery: nil,
            scheduler: scheduler,
            identity: Identity(storage: MemoryIdentityStorage(StoredIdentity(anonymousID: "visitor-1")))
        )
        return (reporter, scheduler)
    }

    static func boundaries(_ store: any EventStore) throws -> [ReportEvent] {
        try store.fetch(count: 1_000, maxBytes: .max).filter { $0.type.hasPrefix("session_") }
    }

    @Test("the next launch records the open session's end at its last activity", arguments: ["memory", "file"])
    func openSessionEndedAtRelaunch(_ kind: String) throws {
        let directory = TemporaryDirectory()
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        let firstStore: any EventStore =
            kind == "file" ? try FileEventStore(directory: directory.url) : MemoryEventStore()
        let (first, scheduler) = Self.launch(firstStore, at: start)
        first.record(type: .purchase)
        scheduler.advance(by: .seconds(42))
        first.record(type: .purchase)
        let session = try #require(first.currentSession?.id)
        scheduler.advance(by: .seconds(600))  // the app is killed here, with the session open

        var store = firstStore
        if let file = firstStore as? FileEventStore {
            try file.close()
            store = try FileEventStore(directory: directory.url)
        }
        let (second, _) = Self.launch(store, at: start.addingTimeInterval(3_600))
        let ended = try Self.boundaries(store).filter { $0.type == ReportEventType.sessionEnd.rawValue }
        #expect(ended.count == 1)
        #expect(ended.first?.sessionID == session)
        #expect(ended.first?.timestamp == start.addingTimeInterval(42), "at its last activity, not at the relaunch")
        #expect(ended.first?.properties[ReportEventKey.duration] == .number(42))
        #expect(ended.first?.properties[ReportEventKey.reason] == .string("foundOpenAtLaunch"))
        second.record(type: .purchase)
        #expect(try Self.boundaries(store).map(\.type) == ["session_start", "session_end", "session_start"])
    }

    @Test("a session the app ended is not ended again by the next launch")
    func endedSessionNotEndedAgain() throws {
        let store = MemoryEventStore()
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        let (first, _) = Self.launch(store, at: start)
        first.record(type: .purchase)
        first.endSession()
        _ = Self.launch(store, at: start.addingTimeInterval(60))
        #expect(try Self.boundaries(store).map(\.type) == ["session_start", "session_end"])
    }
}

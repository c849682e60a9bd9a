import ActuateReporting
import ActuateTesting
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuatePlugins

/// A fake ``EventDelivery`` that records what it was told, and what the store and identity held at each call.
final class RecordingDelivery: EventDelivery {
    struct Flush: Sendable {
        var anonymousIDAtFlush: String?
        var storedEvents: [ReportEvent]
    }

    private struct State {
        var appendedCounts: [Int] = []
        var storeCountsAtAppend: [Int] = []
        var flushes: [Flush] = []
        var identity: Identity?
    }

    private let store: any EventStore
    private let state = Mutex(State())

    init(store: any EventStore) {
        self.store = store
    }

    func watch(_ identity: Identity) {
        state.withLock { $0.identity = identity }
    }

    func eventsAppended(_ count: Int) {
        let stored = (try? store.count()) ?? -1
        state.withLock { state in
            state.appendedCounts.append(count)
            state.storeCountsAtAppend.append(stored)
        }
    }

    func flushNow() async {
        let events = (try? store.fetch(count: 1_000_000, maxBytes: Int.max / 2)) ?? []
        state.withLock { state in
            state.flushes.append(Flush(anonymousIDAtFlush: state.identity?.anonymousID, storedEvents: events))
        }
    }

    var appendedCounts: [Int] { state.withLock { $0.appendedCounts } }
    var storeCountsAtAppend: [Int] { state.withLock { $0.storeCountsAtAppend } }
    var flushes: [Flush] { state.withLock { $0.flushes } }
}

/// A store that refuses every append, to test that failures are reported and never crash.
final class RefusingStore: EventStore {
    func append(_ event: ReportEvent) throws { throw EventStoreError.ioFailed(path: "/dev/full", reason: "disk full") }
    func fetch(count: Int, maxBytes: Int) throws -> [ReportEvent] { [] }
    func remove(ids: Set<ReportEvent.ID>) throws {}
    func moveToDeadLetter(ids: Set<ReportEvent.ID>, reason: String) throws {}
    func deadLetters() throws -> [DeadLetter] { [] }
    func count() throws -> Int { 0 }
    var droppedEventCount: Int { 0 }
}

/// Collects errors passed to an `onError` handler.
final class ErrorLog: Sendable {
    private let errors = Mutex<[ReportingError]>([])

    var handler: @Sendable (ReportingError) -> Void {
        { error in self.errors.withLock { $0.append(error) } }
    }

    var all: [ReportingError] { errors.withLock { $0 } }
}

/// One reporter with its collaborators, all in memory and on virtual time.
struct ReporterFixture {
    let scheduler = TestScheduler()
    let store = MemoryEventStore()
    let storage = MemoryIdentityStorage()
    let delivery: RecordingDelivery
    let identity: Identity
    let errors = ErrorLog()
    let reporter: Reporter

    init(
        policy: SessionPolicy = SessionPolicy(),
        consent: TrackingConsent = .granted,
        store customStore: (any EventStore)? = nil
    ) {
        let usedStore = customStore ?? store
        delivery = RecordingDelivery(store: usedStore)
        identity = Identity(storage: storage)
        delivery.watch(identity)
        reporter = Reporter(
            store: usedStore,
            eventDelivery: delivery,
            scheduler: scheduler,
            identity: identity,
            configuration: ReporterConfiguration(
                sessionPolicy: policy,
                initialConsent: consent,
                onError: errors.handler
            )
        )
    }

    var events: [ReportEvent] {
        (try? store.fetch(count: 1_000_000, maxBytes: Int.max / 2)) ?? []
    }

    func events(ofType type: ReportEventType) -> [ReportEvent] {
        events.filter { $0.type == type.rawValue }
    }
}

let banner = ContentReference.sampleAction(id: 7, name: "Summer banner")

@Suite("Reporter")
struct ReporterTests {
    @Test("a recorded event carries a fresh id, the scheduler's time, the session and both identity ids")
    func buildsEvents() throws {
        let fixture = ReporterFixture()
        try fixture.reporter.identify(userID: "customer-42")
        fixture.scheduler.advance(by: .seconds(12))
        let first = try #require(fixture.reporter.record(content: .executed, for: banner).event)
        fixture.scheduler.advance(by: .seconds(3))
        let second = try #require(
            fixture.reporter.record(content: .target(href: "https://shop.example/sale"), for: banner).event
        )

        #expect(first.id != second.id)
        #expect(first.timestamp == Date(timeIntervalSince1970: 1_767_225_600 + 12))
        #expect(second.timestamp == fixture.scheduler.now())
        #expect(first.sessionID == second.sessionID)
        #expect(first.sessionID == fixture.reporter.currentSession?.id)
        #expect(first.anonymousID == fixture.identity.anonymousID)
        #expect(first.userID == "customer-42")
        #expect(first.type == "executed")
        #expect(first.properties["actionId"] == "7")
        #expect(first.properties["actionName"] == "Summer banner")
        #expect(first.properties["contentSource"] == "action")
        #expect(second.properties["href"] == "https://shop.example/sale")
        #expect(fixture.events.map(\.type) == ["session_start", "executed", "target"])
    }

    @Test("events reach the store before delivery is told about them")
    func appendsBeforeDelivery() {
        let fixture = ReporterFixture()
        fixture.reporter.record(content: .executed, for: banner)
        fixture.reporter.record(type: "newsletter_signup", properties: ["list": "weekly"])
        // The first record also starts the session, so delivery hears of two events at once.
        #expect(fixture.delivery.appendedCounts == [2, 1])
        #expect(fixture.delivery.storeCountsAtAppend == [2, 3])
    }

    @Test("a refused append is returned, counted and reported, and delivery is not told")
    func appendFailureIsReported() {
        let fixture = ReporterFixture(store: RefusingStore())
        let outcome = fixture.reporter.record(content: .executed, for: banner)

        guard case .failed(.appendFailed(let type, let reason)) = outcome else {
            Issue.record("expected an append failure, got \(outcome)")
            return
        }
        #expect(type == "executed")
        #expect(reason.contains("disk full"))
        #expect(fixture.reporter.failedAppendCount == 2)  // session_start and the event
        #expect(fixture.reporter.lastError == outcome.failure)
        #expect(fixture.errors.all.count == 2)
        #expect(fixture.delivery.appendedCounts.isEmpty)
    }

    @Test(
        "invalid events are refused with a clear error",
        arguments: [
            (ReportEventType.sessionStart, [String: JSONValue]()),
            (ReportEventType.sessionEnd, ["duration": 3]),
            (ReportEventType("  "), [:]),
            (ReportEventType.executed, [:]),
            (ReportEventType.target, ["actionId": ""]),
        ]
    )
    func refusesInvalidEvents(type: ReportEventType, properties: [String: JSONValue]) {
        let fixture = ReporterFixture()
        let outcome = fixture.reporter.record(type: type, properties: properties)
        guard case .failed(.invalidEvent) = outcome else {
            Issue.record("expected invalidEvent, got \(outcome)")
            return
        }
        #expect(fixture.events.isEmpty)
        #expect(fixture.errors.all.count == 1)
        #expect(fixture.reporter.lastError?.description.contains("Cannot record event") == true)
    }

    @Test("flush asks delivery to upload now")
    func flushPassesThrough() async {
        let fixture = ReporterFixture()
        fixture.reporter.record(content: .executed, for: banner)
        await fixture.reporter.flush()
        #expect(fixture.delivery.flushes.count == 1)
        #expect(fixture.delivery.flushes.first?.storedEvents.count == 2)
    }

    @Test("without delivery, events are still stored")
    func worksWithoutDelivery() {
        let store = MemoryEventStore()
        let reporter = Reporter(
            store: store,
            delivery: nil,
            scheduler: TestScheduler(),
            identity: Identity(storage: MemoryIdentityStorage())
        )
        reporter.record(content: .executed, for: banner)
        #expect((try? store.count()) == 2)
    }

    @Test("reset flushes under the old identity before rotating it, then runs the reset hooks")
    func resetFlushesFirst() async throws {
        let fixture = ReporterFixture()
        try fixture.reporter.identify(userID: "customer-42")
        let oldID = fixture.identity.anonymousID
        fixture.reporter.record(content: .executed, for: banner)
        fixture.scheduler.advance(by: .seconds(40))
        let anonymousIDInHook = Mutex<String?>(nil)
        let identity = fixture.identity
        fixture.reporter.onReset { anonymousIDInHook.withLock { $0 = identity.anonymousID } }

        await fixture.reporter.reset()

        let flush = try #require(fixture.delivery.flushes.first)
        #expect(flush.anonymousIDAtFlush == oldID)
        #expect(flush.storedEvents.map(\.type) == ["session_start", "executed", "session_end"])
        #expect(flush.storedEvents.allSatisfy { $0.anonymousID == oldID && $0.userID == "customer-42" })
        #expect(flush.storedEvents.last?.properties["reason"] == "reset")
        #expect(flush.storedEvents.last?.properties["duration"] == 40)

        let newID = fixture.identity.anonymousID
        #expect(newID != oldID)
        #expect(UUID(uuidString: newID) != nil)
        #expect(fixture.identity.userID == nil)
        #expect(anonymousIDInHook.withLock { $0 } == newID)
        #expect(try fixture.storage.load() == StoredIdentity(anonymousID: newID, userID: nil))

        let after = try #require(fixture.reporter.record(content: .executed, for: banner).event)
        #expect(after.anonymousID == newID)
        #expect(after.userID == nil)
        #expect(after.sessionID != flush.storedEvents[0].sessionID)
    }

    @Test("identify rejects an empty user id")
    func identifyRejectsEmpty() {
        let fixture = ReporterFixture()
        #expect(throws: ReportingError.invalidUserID) { try fixture.reporter.identify(userID: " ") }
        #expect(fixture.identity.userID == nil)
    }

    @Test("concurrent records are all stored, each once, in one session")
    func concurrentRecords() async {
        let fixture = ReporterFixture()
        let reporter = fixture.reporter
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask { reporter.record(content: .product(productID: "sku-\(index)"), for: banner) }
            }
        }
        let events = fixture.events
        #expect(events.count == 201)
        #expect(Set(events.map(\.id)).count == 201)
        #expect(Set(events.map(\.sessionID)).count == 1)
        #expect(events.first?.type == "session_start")
        #expect(fixture.delivery.appendedCounts.reduce(0, +) == 201)
    }
}

extension RecordOutcome {
    var failure: ReportingError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}

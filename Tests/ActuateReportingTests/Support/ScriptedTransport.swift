import Foundation
import Synchronization

@testable import ActuateReporting

/// Test events with a sequence number in their properties.
func makeEvents(_ count: Int, start: Int = 0) -> [ReportEvent] {
    (start..<(start + count)).map { index in
        ReportEvent(
            type: "executed",
            timestamp: Date(timeIntervalSince1970: 1_767_225_600 + Double(index)),
            sessionID: "session-1",
            anonymousID: "anon-1",
            properties: ["seq": .number(Double(index)), "actionId": 7, "name": "Banner"]
        )
    }
}

/// A memory store already holding `events`.
func makeStore(_ events: [ReportEvent]) throws -> MemoryEventStore {
    let store = MemoryEventStore(maxEvents: 1_000_000)
    for event in events { try store.append(event) }
    return store
}

/// An ``EventTransport`` that answers from a script, records what it was sent, and can hold each request
/// until the test releases it.
final class ScriptedTransport: EventTransport {
    private struct State {
        var script: [TransportResponse]
        var batches: [[ReportEvent]] = []
        var everyBatchWasStillStored = true
        var inFlight = 0
        var maxInFlight = 0
        var parked: [CheckedContinuation<Void, Never>] = []
        var parkWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Mutex<State>
    private let store: (any EventStore)?
    private let gated: Bool
    private let rule: (@Sendable (EventBatch) -> TransportResponse?)?

    /// - Parameters:
    ///   - script: Responses given in order, then 200.
    ///   - store: When given, each send checks that every event of the batch is still in it.
    ///   - gated: When true, each send waits for ``release()``.
    ///   - rule: A response chosen from the batch, tried before the script.
    init(
        script: [TransportResponse] = [],
        store: (any EventStore)? = nil,
        gated: Bool = false,
        rule: (@Sendable (EventBatch) -> TransportResponse?)? = nil
    ) {
        self.state = Mutex(State(script: script))
        self.store = store
        self.gated = gated
        self.rule = rule
    }

    var batches: [[ReportEvent]] { state.withLock { $0.batches } }
    var requestCount: Int { state.withLock { $0.batches.count } }
    var maxInFlight: Int { state.withLock { $0.maxInFlight } }
    var everyBatchWasStillStored: Bool { state.withLock { $0.everyBatchWasStillStored } }

    func send(_ batch: EventBatch) async -> TransportResponse {
        let stored = (try? store?.fetch(count: Int.max, maxBytes: Int.max)).map { Set($0.map(\.id)) }
        state.withLock { state in
            state.batches.append(batch.events)
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
            if let stored, !batch.ids.isSubset(of: stored) { state.everyBatchWasStillStored = false }
        }
        if gated {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    state.parked.append(continuation)
                    let count = state.parked.count
                    let ready = state.parkWaiters.filter { $0.count <= count }.map(\.continuation)
                    state.parkWaiters.removeAll { $0.count <= count }
                    return ready
                }
                for continuation in ready { continuation.resume() }
            }
        }
        return state.withLock { state in
            state.inFlight -= 1
            if let answer = rule?(batch) { return answer }
            return state.script.isEmpty ? .http(HTTPResponse(statusCode: 200)) : state.script.removeFirst()
        }
    }

    /// Waits until `count` requests are held.
    func waitUntilParked(_ count: Int = 1) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.parked.count >= count { return true }
                state.parkWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Lets every held request continue.
    func release() {
        let parked = state.withLock { state in
            defer { state.parked = [] }
            return state.parked
        }
        for continuation in parked { continuation.resume() }
    }
}

/// A store that fails while `failing` is set, to test how the uploader handles store errors.
final class FlakyStore: EventStore {
    let base: MemoryEventStore
    private let failingFlag = Atomic<Bool>(true)

    init(base: MemoryEventStore) {
        self.base = base
    }

    var failing: Bool {
        get { failingFlag.load(ordering: .relaxed) }
        set { failingFlag.store(newValue, ordering: .relaxed) }
    }

    private func check() throws {
        if failing { throw EventStoreError.ioFailed(path: "/tmp/flaky", reason: "disk unavailable") }
    }

    func append(_ event: ReportEvent) throws { try base.append(event) }
    func fetch(count: Int, maxBytes: Int) throws -> [ReportEvent] {
        try check()
        return try base.fetch(count: count, maxBytes: maxBytes)
    }
    func remove(ids: Set<ReportEvent.ID>) throws { try base.remove(ids: ids) }
    func moveToDeadLetter(ids: Set<ReportEvent.ID>, reason: String) throws {
        try base.moveToDeadLetter(ids: ids, reason: reason)
    }
    func deadLetters() throws -> [DeadLetter] { try base.deadLetters() }
    func count() throws -> Int { try base.count() }
    var droppedEventCount: Int { base.droppedEventCount }
}

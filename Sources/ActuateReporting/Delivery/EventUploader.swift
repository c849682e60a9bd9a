import Actuate
import Foundation
import Synchronization

/// Uploads stored events in batches, and removes them from the store only once the collector acknowledged them.
///
/// The uploader reads batches from an ``EventStore`` without removing them, sends them through an
/// ``EventTransport``, and acts on the response: a 2xx removes the batch; connection errors and 5xx are retried
/// with exponential backoff; 429 and 503 pause the whole pipeline for `Retry-After`; 413 splits the batch and
/// backs off before sending its first half; a 3xx redirect (never followed) is a configuration error that pauses
/// delivery with backoff and is reported in ``UploaderStatus/configurationError``, with nothing dead-lettered; any
/// other 4xx counts a try and, after `UploadRetryPolicy.maxRejectedTries`, moves the batch to the dead-letter
/// file. The decisions live in a state machine kept apart from the I/O; every delay runs on the injected scheduler.
///
/// Only one flush runs at a time. A flush requested while one runs makes it run once more afterwards.
///
/// ```swift
/// let transport = try HTTPEventTransport(endpoint: URL(string: "https://collector.example.com/v1/batch")!,
///                                        apiKey: apiKey)
/// let uploader = EventUploader(store: store, transport: transport, scheduler: SystemScheduler.shared)
/// let reporter = Reporter(                   // tells the uploader of each event: it flushes at 20, every 30 s
///     store: store,
///     delivery: uploader,
///     scheduler: SystemScheduler.shared,
///     identity: Identity(storage: FileIdentityStorage(directory: supportDirectory))
/// )
/// await uploader.flushNow()                  // or flush by hand
/// ```
public final class EventUploader: EventDelivery {
    private struct Hold {
        var token: UInt64
        var work: ScheduledWork?
    }

    private struct State {
        var machine: UploadStateMachine
        var status = UploaderStatus()
        var running = false
        var rerunRequested = false
        /// Resumed when the current run ends.
        var runWaiters: [CheckedContinuation<Void, Never>] = []
        /// Resumed when the run after the current one ends.
        var nextRunWaiters: [CheckedContinuation<Void, Never>] = []
        /// Resumed when no run is in progress.
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        /// A scheduled retry or pause; while it exists, flush requests wait for it.
        var hold: Hold?
        var nextHoldToken: UInt64 = 0
        var intervalWork: ScheduledWork?
        var appendedSinceFlush = 0
        var subscribers: [UUID: AsyncStream<UploadResult>.Continuation] = [:]
        var isShutDown = false
    }

    private enum RunEnd {
        case drained
        case hold(delay: Duration, isPause: Bool)
    }

    private let store: any EventStore
    private let transport: any EventTransport
    private let scheduler: any ActuateScheduler
    private let configuration: Configuration
    private let state: Mutex<State>

    /// Creates an uploader and starts its interval timer, if its policies have one.
    ///
    /// - Parameters:
    ///   - store: Where events wait until they are acknowledged.
    ///   - transport: How batches reach the collector.
    ///   - scheduler: The clock and timer source for intervals, backoff and pauses.
    ///   - configuration: Batch sizes, flush policies and retry rules.
    public init(
        store: any EventStore,
        transport: any EventTransport,
        scheduler: any ActuateScheduler,
        configuration: Configuration = Configuration()
    ) {
        var configuration = configuration
        configuration.maxBatchCount = max(1, configuration.maxBatchCount)
        configuration.maxBatchBytes = max(1, configuration.maxBatchBytes)
        self.store = store
        self.transport = transport
        self.scheduler = scheduler
        self.configuration = configuration
        self.state = Mutex(State(machine: UploadStateMachine(policy: configuration.retryPolicy)))
        armIntervalTimer()
    }

    deinit {
        let (hold, interval, subscribers) = state.withLock { state in
            (state.hold?.work, state.intervalWork, Array(state.subscribers.values))
        }
        hold?.cancel()
        interval?.cancel()
        for subscriber in subscribers { subscriber.finish() }
    }

    /// What the uploader has done so far and what it waits for: events acknowledged, dead-lettered and pending, the
    /// next attempt, the last error, and whether delivery is paused for a configuration error.
    ///
    /// ``UploaderStatus/eventsPending`` is counted in the store as the status is read.
    public var status: UploaderStatus {
        var status = state.withLock { $0.status }
        status.eventsPending = try? store.count()
        return status
    }

    /// Tells the uploader that events were appended; a count policy may start a flush.
    /// - Parameter count: How many events were appended.
    package func eventsAppended(_ count: Int) {
        request(appended: max(0, count), waiter: nil)
    }

    /// Uploads what is stored now, and returns when that attempt has finished, acknowledged or not.
    ///
    /// When a flush is running, this waits for it and for one more run after it. While a retry or a pause is
    /// scheduled, this returns at once: the scheduled attempt will send the stored events.
    public func flushNow() async {
        await withCheckedContinuation { continuation in
            request(appended: nil, waiter: continuation)
        }
    }

    /// Flushes because the app is moving to the background.
    ///
    /// Apps that want the flush to finish before suspension can instead await ``flushNow()`` inside a background
    /// task.
    public func applicationDidEnterBackground() {
        request(appended: nil, waiter: nil)
    }

    /// Returns once no flush is running; a retry or pause may still be scheduled.
    package func waitUntilIdle() async {
        await withCheckedContinuation { continuation in
            let idle = state.withLock { state -> Bool in
                guard state.running else { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// A stream of the result of every request from now on.
    ///
    /// - Returns: A stream that ends when the uploader is released; it keeps the newest 1,000 unread results.
    package func results() -> AsyncStream<UploadResult> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: UploadResult.self,
            bufferingPolicy: .bufferingNewest(1000)
        )
        let id = UUID()
        state.withLock { $0.subscribers[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    // MARK: - Starting and ending runs

    /// Starts a run, or records the request against the running one, in one lock acquisition.
    private func request(appended: Int?, waiter: CheckedContinuation<Void, Never>?) {
        let threshold = configuration.flushCount
        let (start, resumeNow) = state.withLock { state -> (Bool, Bool) in
            if let appended {
                state.appendedSinceFlush += appended
                guard let threshold, state.appendedSinceFlush >= threshold else { return (false, false) }
            }
            if state.hold != nil { return (false, true) }
            if state.running {
                state.rerunRequested = true
                if let waiter { state.nextRunWaiters.append(waiter) }
                return (false, false)
            }
            Self.beginRun(&state)
            if let waiter { state.runWaiters.append(waiter) }
            return (true, false)
        }
        if resumeNow { waiter?.resume() }
        if start { spawnRun() }
    }

    private static func beginRun(_ state: inout State) {
        state.running = true
        state.rerunRequested = false
        state.status.isFlushing = true
        state.appendedSinceFlush = 0
    }

    private func spawnRun() {
        Task { [self] in
            let end = await performRun()
            finishRun(end)
        }
    }

    private func finishRun(_ end: RunEnd) {
        var released: [CheckedContinuation<Void, Never>] = []
        if case .hold(let delay, let isPause) = end {
            let now = scheduler.now()
            let uptime = scheduler.uptime()
            let token = state.withLock { state -> UInt64 in
                let token = state.nextHoldToken
                state.nextHoldToken += 1
                state.hold = Hold(token: token, work: nil)
                state.rerunRequested = false
                state.status.retriesScheduled += 1
                state.status.nextAttemptUptime = uptime + delay
                state.status.pausedUntil = isPause ? now.addingTimeInterval(delay.seconds) : nil
                released = state.runWaiters + state.nextRunWaiters
                state.runWaiters = []
                state.nextRunWaiters = []
                return token
            }
            let work = scheduler.schedule(after: delay) { [weak self] in self?.holdEnded(token: token) }
            state.withLock { state in
                if state.hold?.token == token { state.hold?.work = work }
            }
        }
        let start = state.withLock { state -> Bool in
            released += state.runWaiters
            state.runWaiters = []
            if state.rerunRequested {
                Self.beginRun(&state)
                state.runWaiters = state.nextRunWaiters
                state.nextRunWaiters = []
                return true
            }
            state.running = false
            state.status.isFlushing = false
            released += state.nextRunWaiters + state.idleWaiters
            state.nextRunWaiters = []
            state.idleWaiters = []
            return false
        }
        for waiter in released { waiter.resume() }
        if start { spawnRun() }
    }

    private func holdEnded(token: UInt64) {
        let start = state.withLock { state -> Bool in
            guard state.hold?.token == token else { return false }
            state.hold = nil
            state.status.pausedUntil = nil
            state.status.nextAttemptUptime = nil
            if state.running {
                state.rerunRequested = true
                return false
            }
            Self.beginRun(&state)
            return true
        }
        if start { spawnRun() }
    }

    private func armIntervalTimer() {
        guard let interval = configuration.flushInterval else { return }
        let work = scheduler.schedule(after: interval) { [weak self] in
            self?.request(appended: nil, waiter: nil)
            self?.armIntervalTimer()
        }
        state.withLock { $0.intervalWork = work }
    }

    // MARK: - One run

    private func performRun() async -> RunEnd {
        // The batch after the one last sent, read from a FileEventStore while that one was in flight.
        var readAhead: MeasuredBatch?
        while true {
            // Reading the current batch and beginning a fetched one take two lock acquisitions; that is safe
            // because only the single running flush changes the machine's batches.
            let events: [ReportEvent]
            // The fetched events' JSON, when the store measured them in the transport's encoding.
            var elements: [UInt8]?
            // The fetched events' journal sequence numbers, when they came from a FileEventStore.
            var sequences: [UInt64] = []
            if let current = state.withLock({ $0.machine.currentBatch }) {
                events = current
                readAhead = nil
            } else {
                let fetched: [ReportEvent]
                do {
                    // The stores measure events in Actuate's encoding; the transport's encoding then cuts the
                    // batch exactly, so the body never exceeds maxBatchBytes whatever the store or encoding.
                    let stored: [ReportEvent]
                    if storeCutsExactly, let fileStore = store as? FileEventStore {
                        let measured = try nextBatch(from: fileStore, readAhead: readAhead)
                        readAhead = nil
                        stored = measured.events
                        elements = measured.elements
                        sequences = measured.sequences
                    } else {
                        stored = try store.fetch(count: configuration.maxBatchCount, maxBytes: storeByteBudget)
                    }
                    fetched =
                        storeCutsExactly
                        ? stored
                        : EventBatchSizing.prefix(of: stored, maxBytes: sendByteBudget, encoding: transport.encoding)
                } catch {
                    return storeFailed(error)
                }
                guard !fetched.isEmpty else { return .drained }
                state.withLock { $0.machine.begin(fetched) }
                events = fetched
            }
            state.withLock { $0.status.requestsSent += 1 }
            var batch = EventBatch(events: events, sentAt: scheduler.now())
            batch.actuateElements.bytes = elements
            let response: TransportResponse
            if let fileStore = store as? FileEventStore, let last = sequences.last {
                // Read the next batch while this one is in flight. It is used only if this one is acknowledged
                // and its events are then still the oldest stored; a failed read is left to the next fetch.
                let (count, budget) = (configuration.maxBatchCount, storeByteBudget)
                async let ahead = Result {
                    try fileStore.fetchBatch(count: count, maxBytes: budget, afterSequence: last)
                }
                response = await transport.send(batch)
                readAhead = try? await ahead.get()
            } else {
                response = await transport.send(batch)
            }
            let random = configuration.random()
            let now = scheduler.now()
            let (decision, result, subscribers) = state.withLock { state in
                let decision = state.machine.handle(response, now: now, random: random)
                let result = UploadResult(eventCount: events.count, response: response, decision: decision)
                state.status.lastResult = result
                state.status.configurationError = state.machine.configurationError
                if case .split = decision { state.status.batchesSplit += 1 }
                return (decision, result, Array(state.subscribers.values))
            }
            for subscriber in subscribers { subscriber.yield(result) }
            switch decision {
            case .acknowledge(let ids):
                do { try store.remove(ids: ids) } catch { return storeFailed(error) }
                state.withLock { state in
                    state.status.eventsAcknowledged += ids.count
                    state.status.lastStoreError = nil
                }
            case .deadLetter(let ids, let reason):
                do { try store.moveToDeadLetter(ids: ids, reason: reason) } catch { return storeFailed(error) }
                state.withLock { state in
                    state.status.eventsDeadLettered += ids.count
                    state.status.lastStoreError = nil
                }
            case .split(let delay):
                return .hold(delay: delay, isPause: false)
            case .retry(let delay, _):
                return .hold(delay: delay, isPause: false)
            case .pause(let delay, _):
                return .hold(delay: delay, isPause: true)
            }
        }
    }

    /// The batch read ahead when its events are still the oldest stored, else the oldest stored events.
    private func nextBatch(from fileStore: FileEventStore, readAhead: MeasuredBatch?) throws -> MeasuredBatch {
        if let readAhead, !readAhead.events.isEmpty, try fileStore.isOldestStored(readAhead) {
            state.withLock { $0.status.batchesReadAhead += 1 }
            return readAhead
        }
        return try fileStore.fetchBatch(
            count: configuration.maxBatchCount,
            maxBytes: storeByteBudget,
            afterSequence: nil
        )
    }

    /// Whether the store's own cut is already exact: the built-in stores measure in Actuate's encoding.
    private var storeCutsExactly: Bool {
        transport.encoding == .actuate && (store is FileEventStore || store is MemoryEventStore)
    }

    /// The bytes of events, in Actuate's encoding, to ask the store for.
    private var storeByteBudget: Int {
        EventBatchSizing.eventBudget(maxBatchBytes: configuration.maxBatchBytes, encoding: .actuate)
    }

    /// The bytes of events, in the transport's encoding, that fit in one request body.
    private var sendByteBudget: Int {
        EventBatchSizing.eventBudget(maxBatchBytes: configuration.maxBatchBytes, encoding: transport.encoding)
    }

    private func storeFailed(_ error: any Error) -> RunEnd {
        let random = configuration.random()
        let delay = state.withLock { state in
            state.status.lastStoreError = String(describing: error)
            return state.machine.storeFailed(random: random)
        }
        return .hold(delay: delay, isPause: false)
    }
}

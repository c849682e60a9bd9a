import ActuateTesting
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins
@testable import ActuateReporting

private func http(_ status: Int, _ headers: [String: String] = [:]) -> TransportResponse {
    .http(HTTPResponse(statusCode: status, headers: headers))
}

private func configuration(
    _ policies: [FlushPolicy] = [.manual],
    batch: Int = 500
) -> EventUploader.Configuration {
    EventUploader.Configuration(flushPolicies: policies, maxBatchCount: batch, random: { 0.5 })
}

/// Advances the scheduler to the uploader's next scheduled attempt and waits for the attempt's run to end.
private func advanceToNextAttempt(_ uploader: EventUploader, _ scheduler: TestScheduler) async throws {
    let next = try #require(uploader.status.nextAttemptUptime)
    scheduler.advance(by: next - scheduler.uptime())
    await uploader.waitUntilIdle()
}

@Suite("EventUploader")
struct EventUploaderTests {
    @Test("uploads in capped batches, oldest first, and removes events only after a 2xx")
    func batchesAndAcknowledgement() async throws {
        let events = makeEvents(25)
        let store = try makeStore(events)
        let transport = ScriptedTransport(store: store)
        let uploader = EventUploader(
            store: store,
            transport: transport,
            scheduler: TestScheduler(),
            configuration: configuration(batch: 10)
        )

        await uploader.flushNow()

        #expect(transport.batches.map(\.count) == [10, 10, 5])
        #expect(transport.batches.flatMap { $0 } == events)
        #expect(transport.everyBatchWasStillStored)
        #expect(try store.count() == 0)
        #expect(uploader.status.requestsSent == 3)
        #expect(uploader.status.eventsAcknowledged == 25)
        #expect(!uploader.status.isFlushing)
    }

    @Test("the byte cap limits a batch as the store measures it")
    func byteCap() async throws {
        let store = try makeStore(makeEvents(6))
        let oneEvent = try JSONEncoder().encode(makeEvents(1)[0]).count
        let transport = ScriptedTransport()
        var settings = configuration()
        settings.maxBatchBytes = oneEvent * 2 + oneEvent / 2
        let uploader = EventUploader(
            store: store,
            transport: transport,
            scheduler: TestScheduler(),
            configuration: settings
        )

        await uploader.flushNow()

        #expect(transport.batches.map(\.count) == [2, 2, 2])
    }

    @Test("a 5xx keeps the batch and retries it after the backoff, on the scheduler")
    func serverErrorRetry() async throws {
        let scheduler = TestScheduler()
        let store = try makeStore(makeEvents(5))
        let transport = ScriptedTransport(script: [http(500)], store: store)
        let uploader = EventUploader(
            store: store,
            transport: transport,
            scheduler: scheduler,
            configuration: configuration()
        )

        await uploader.flushNow()
        #expect(transport.requestCount == 1)
        #expect(try store.count() == 5)
        #expect(uploader.status.nextAttemptUptime == .milliseconds(500))
        #expect(uploader.status.retriesScheduled == 1)
        #expect(uploader.status.pausedUntil == nil)
        #expect(uploader.status.eventsPending == 5)
        #expect(uploader.status.lastError?.contains("500") == true, "\(uploader.status)")
        #expect(!uploader.status.isPausedForConfigurationError)

        scheduler.advance(by: .milliseconds(499))
        await uploader.waitUntilIdle()
        #expect(transport.requestCount == 1)

        scheduler.advance(by: .milliseconds(1))
        await uploader.waitUntilIdle()
        #expect(transport.requestCount == 2)
        #expect(transport.batches[0] == transport.batches[1])
        #expect(try store.count() == 0)
        #expect(uploader.status.nextAttemptUptime == nil)
        #expect(uploader.status.eventsPending == 0)
        #expect(uploader.status.eventsAcknowledged == 5)
        #expect(uploader.status.lastError == nil)
        #expect(transport.everyBatchWasStillStored)
    }

    @Test("Retry-After pauses the whole pipeline; flush requests during the pause send nothing")
    func retryAfterPause() async throws {
        let scheduler = TestScheduler()
        let store = try makeStore(makeEvents(3))
        let transport = ScriptedTransport(script: [http(503, ["Retry-After": "2"])])
        let uploader = EventUploader(
            store: store,
            transport: transport,
            scheduler: scheduler,
            configuration: configuration([.count(1)])
        )

        await uploader.flushNow()
        #expect(uploader.status.pausedUntil == scheduler.now().addingTimeInterval(2))

        await uploader.flushNow()
        uploader.eventsAppended(50)
        uploader.applicationDidEnterBackground()
        await uploader.waitUntilIdle()
        scheduler.advance(by: .milliseconds(1999))
        await uploader.waitUntilIdle()
        #expect(transport.requestCount == 1)

        scheduler.advance(by: .milliseconds(1))
        await uploader.waitUntilIdle()
        #expect(transport.requestCount == 2)
        #expect(uploader.status.pausedUntil == nil)
        #expect(try store.count() == 0)
    }

    @Test("a batch rejected three times goes to the dead-letter file with the reason; the rest is delivered")
    func deadLetter() async throws {
        let scheduler = TestScheduler()
        let events = makeEvents(10)
        let store = try makeStore(events)
        let transport = ScriptedTransport(script: [http(400), http(400), http(400)])
        let uploader = EventUploader(
            store: store,
            transport: transport,
            scheduler: scheduler,
            configuration: configuration(batch: 5)
        )

        await uploader.flushNow()
        try await advanceToNextAttempt(uploader, scheduler)
        try await advanceToNextAttempt(uploader, scheduler)

        let letters = try store.deadLetters()
        #expect(letters.map(\.event) == Array(events[0..<5]))
        #expect(letters.allSatisfy { $0.reason == "HTTP 400 after 3 tries" })
        #expect(try store.count() == 0)
        #expect(transport.requestCount == 4)
        #expect(uploader.status.eventsDeadLettered == 5)
        #expect(uploader.status.eventsAcknowledged == 5)
    }

    @Test(
        "413 splits the batch, with a backoff before each half, until the oversized event is alone, then dead-letters only that event"
    )
    func splitting() async throws {
        let events = makeEvents(8)
        let poison = events[5].id
        let store = try makeStore(events)
        let transport = ScriptedTransport(rule: { batch in batch.ids.contains(poison) ? http(413) : nil })
        let scheduler = TestScheduler()
        let uploader = EventUploader(
            store: store,
            transport: transport,
            scheduler: scheduler,
            configuration: configuration()
        )

        await uploader.flushNow()
        #expect(transport.batches.map(\.count) == [8], "nothing more is sent before the backoff has passed")
        var delays: [Duration] = []
        while let next = uploader.status.nextAttemptUptime {
            delays.append(next - scheduler.uptime())
            scheduler.advance(by: next - scheduler.uptime())
            await uploader.waitUntilIdle()
        }
        #expect(delays == [.milliseconds(500), .milliseconds(500), .seconds(1)])

        let letters = try store.deadLetters()
        #expect(letters.map(\.event.id) == [poison])
        #expect(letters.first?.reason.contains("413") == true)
        #expect(try store.count() == 0)
        #expect(uploader.status.batchesSplit == 3)
        #expect(uploader.status.eventsAcknowledged == 7)
        #expect(transport.batches.map(\.count) == [8, 4, 4, 2, 1, 1, 2])
    }

    @Test("a count policy flushes once enough events were appended")
    func countPolicy() async throws {
        let store = try makeStore(makeEvents(5))
        let transport = ScriptedTransport()
        let uploader = EventUploader(
            store: store,
            transport: transport,
            scheduler: TestScheduler(),
            configuration: configuration([.count(5)])
        )

        uploader.eventsAppended(4)
        await uploader.waitUntilIdle()
        #expect(transport.requestCount == 0)

        uploader.eventsAppended(1)
        await uploader.waitUntilIdle()
        #expect(transport.requestCount == 1)
        #expect(try store.count() == 0)
    }

    @Test("an interval policy flushes on the scheduler's period")
    func intervalPolicy() async throws {
        let scheduler = TestScheduler()
        let store = try makeStore(makeEvents(2))
        let transport = ScriptedTransport()
        let uploader = EventUploader(
            store: store,
            transport: transport,
            scheduler: scheduler,
            configuration: configuration([.interval(.seconds(30))])
        )

        scheduler.advance(by: .seconds(29))
        await uploader.waitUntilIdle()
        #expect(transport.requestCount == 0)

        scheduler.advance(by: .seconds(1))
        await uploader.waitUntilIdle()
        #expect(transport.requestCount == 1)

        for event in makeEvents(3, start: 2) { try store.append(event) }
        scheduler.advance(by: .seconds(30))
        await uploader.waitUntilIdle()
        #expect(transport.batches.map(\.count) == [2, 3])
    }

    @Test("the default policies are 20 events and 30 seconds")
    func defaults() {
        #expect(FlushPolicy.defaults == [.count(20), .interval(.seconds(30))])
        let settings = EventUploader.Configuration()
        #expect(settings.maxBatchCount == 500)
        #expect(settings.maxBatchBytes == 475_000)
        #expect(settings.retryPolicy == UploadRetryPolicy())
    }

    @Test("a manual policy starts no timer and never flushes alone; background entry flushes")
    func manualAndBackground() async throws {
        let scheduler = TestScheduler()
        let store = try makeStore(makeEvents(3))
        let transport = ScriptedTransport()
        let uploader = EventUploader(
            store: store,
            transport: transport,
            scheduler: scheduler,
            configuration: configuration()
        )

        #expect(scheduler.pendingCount == 0)
        uploader.eventsAppended(1000)
        scheduler.advance(by: .seconds(3600))
        await uploader.waitUntilIdle()
        #expect(transport.requestCount == 0)

        uploader.applicationDidEnterBackground()
        await uploader.waitUntilIdle()
        #expect(transport.requestCount == 1)
        #expect(try store.count() == 0)
    }

    @Test("only one flush runs at a time; requests during a flush coalesce into one more run")
    func coalescing() async throws {
        let store = try makeStore(makeEvents(3))
        let transport = ScriptedTransport(gated: true)
        let uploader = EventUploader(
            store: store,
            transport: transport,
            scheduler: TestScheduler(),
            configuration: configuration([.count(1)])
        )

        uploader.eventsAppended(1)
        await transport.waitUntilParked()
        for event in makeEvents(2, start: 3) { try store.append(event) }
        uploader.eventsAppended(1)
        uploader.eventsAppended(1)
        uploader.applicationDidEnterBackground()
        #expect(uploader.status.isFlushing)

        transport.release()
        await transport.waitUntilParked()
        transport.release()
        await uploader.waitUntilIdle()

        #expect(transport.maxInFlight == 1)
        #expect(transport.batches.map(\.count) == [3, 2])
        #expect(try store.count() == 0)
    }

    @Test("flushNow returns only when its attempt has finished")
    func flushNowWaits() async throws {
        let store = try makeStore(makeEvents(2))
        let transport = ScriptedTransport(gated: true)
        let uploader = EventUploader(
            store: store,
            transport: transport,
            scheduler: TestScheduler(),
            configuration: configuration()
        )

        let flush = Task {
            await uploader.flushNow()
            return try store.count()
        }
        await transport.waitUntilParked()
        #expect(try store.count() == 2)
        transport.release()
        #expect(try await flush.value == 0)
    }

    @Test("a failing store is reported and retried with backoff, without losing events")
    func storeFailure() async throws {
        let scheduler = TestScheduler()
        let store = FlakyStore(base: try makeStore(makeEvents(4)))
        let transport = ScriptedTransport()
        let uploader = EventUploader(
            store: store,
            transport: transport,
            scheduler: scheduler,
            configuration: configuration()
        )

        await uploader.flushNow()
        #expect(transport.requestCount == 0)
        #expect(uploader.status.lastStoreError?.contains("disk unavailable") == true)
        #expect(uploader.status.nextAttemptUptime == .milliseconds(500))

        store.failing = false
        try await advanceToNextAttempt(uploader, scheduler)
        #expect(transport.requestCount == 1)
        #expect(try store.count() == 0)
        #expect(uploader.status.lastStoreError == nil)
    }

    @Test("the results stream reports each request and its decision")
    func resultsStream() async throws {
        let scheduler = TestScheduler()
        let store = try makeStore(makeEvents(2))
        let transport = ScriptedTransport(script: [.failed(TransportFailure(kind: .timedOut, message: "1 s"))])
        let uploader = EventUploader(
            store: store,
            transport: transport,
            scheduler: scheduler,
            configuration: configuration()
        )
        let results = uploader.results()

        await uploader.flushNow()
        try await advanceToNextAttempt(uploader, scheduler)

        var iterator = results.makeAsyncIterator()
        let first = try #require(await iterator.next())
        let second = try #require(await iterator.next())
        #expect(first.failure?.kind == .timedOut)
        #expect(first.statusCode == nil)
        #expect(first.decision == .retry(after: .milliseconds(500), reason: "timedOut: 1 s"))
        #expect(second.statusCode == 200)
        #expect(second.eventCount == 2)
        #expect(uploader.status.lastResult == second)
    }

    @Test("releasing the uploader cancels its timers")
    func releaseCancelsTimers() throws {
        let scheduler = TestScheduler()
        do {
            let uploader = EventUploader(
                store: MemoryEventStore(),
                transport: ScriptedTransport(),
                scheduler: scheduler,
                configuration: configuration([.interval(.seconds(30))])
            )
            #expect(scheduler.pendingCount == 1)
            _ = uploader
        }
        #expect(scheduler.pendingCount == 0)
    }

    @Test("invalid batch caps are corrected rather than stalling the uploader")
    func invalidCaps() async throws {
        let store = try makeStore(makeEvents(2))
        let transport = ScriptedTransport()
        var settings = configuration(batch: 0)
        settings.maxBatchBytes = -1
        let uploader = EventUploader(
            store: store,
            transport: transport,
            scheduler: TestScheduler(),
            configuration: settings
        )

        await uploader.flushNow()

        #expect(transport.batches.map(\.count) == [1, 1])
    }
}

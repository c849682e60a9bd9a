import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuateTesting

/// Reads `count` events from `iterator`, as the names and kinds of their actions.
private func next(
    _ count: Int,
    from iterator: inout AsyncStream<ActionDispatchEvent>.Iterator
) async -> [String] {
    var events: [String] = []
    for _ in 0..<count {
        guard let event = await iterator.next() else { break }
        switch event {
        case .began(let request): events.append("began \(request.inputDescription)")
        case .completed(let request, _): events.append("completed \(request.inputDescription)")
        }
    }
    return events
}

@Suite("Dispatch event hub")
struct DispatchEventHubTests {
    @Test("20,000 ended event streams publish at most two plugin lists and keep no stream")
    func endedStreamsAreReleased() async {
        let harness = ActionTestHarness()
        let dispatcher = harness.dispatcher
        let listsBefore = dispatcher.publishedPluginListCount
        for index in 0..<20_000 {
            let stream = dispatcher.events()
            if index.isMultiple(of: 2_000) {
                _ = await harness.perform(GreetingFeature.sayHello, input: "n\(index)", presenter: GreetingPresenter())
                var iterator = stream.makeAsyncIterator()
                #expect(await next(2, from: &iterator) == ["began n\(index)", "completed n\(index)"])
            }
        }
        #expect(dispatcher.publishedPluginListCount <= listsBefore + 2)
        #expect(await eventually { dispatcher.liveEventStreamCount == 0 })
        #expect(dispatcher.eventStreamRequestsInFlight == 0)
    }

    @Test("several live streams each receive every event, in order")
    func severalStreams() async {
        let harness = ActionTestHarness()
        let streams = (0..<3).map { _ in harness.dispatcher.events(bufferingPolicy: .unbounded) }
        for index in 0..<5 {
            _ = await harness.perform(GreetingFeature.sayHello, input: "n\(index)", presenter: GreetingPresenter())
        }
        let expected = (0..<5).flatMap { ["began n\($0)", "completed n\($0)"] }
        for stream in streams {
            var iterator = stream.makeAsyncIterator()
            #expect(await next(10, from: &iterator) == expected)
        }
        #expect(harness.dispatcher.liveEventStreamCount == 3)
    }

    @Test("a stream that ends stops receiving, and the others keep receiving")
    func streamEndingMidStream() async {
        let harness = ActionTestHarness()
        let staying = harness.dispatcher.events(bufferingPolicy: .unbounded)
        var leaving: AsyncStream<ActionDispatchEvent>.Iterator? = harness.dispatcher.events().makeAsyncIterator()
        _ = await harness.perform(GreetingFeature.sayHello, input: "first", presenter: GreetingPresenter())
        #expect(await next(2, from: &leaving!) == ["began first", "completed first"])
        #expect(harness.dispatcher.liveEventStreamCount == 2)
        leaving = nil
        #expect(await eventually { harness.dispatcher.liveEventStreamCount == 1 })
        _ = await harness.perform(GreetingFeature.sayHello, input: "second", presenter: GreetingPresenter())
        var iterator = staying.makeAsyncIterator()
        #expect(
            await next(4, from: &iterator) == ["began first", "completed first", "began second", "completed second"]
        )
    }

    @Test("a stream opened while an action is in flight hears neither its begin nor its completion")
    func streamOpenedMidFlight() async throws {
        let harness = ActionTestHarness()
        let early = harness.dispatcher.events(bufferingPolicy: .unbounded)
        let probe = Probe()
        let pending = harness.start(GreetingFeature.probe, input: probe, presenter: GreetingPresenter())
        #expect(await eventually { probe.events.count == 1 })
        let late = harness.dispatcher.events(bufferingPolicy: .unbounded)
        probe.completeKept(.success)
        #expect(try #require(await pending.outcome()).simplifiedOutcome.isSuccess)
        _ = await harness.perform(GreetingFeature.sayHello, input: "after", presenter: GreetingPresenter())
        var earlyIterator = early.makeAsyncIterator()
        #expect(
            await next(4, from: &earlyIterator) == ["began probe", "completed probe", "began after", "completed after"]
        )
        var lateIterator = late.makeAsyncIterator()
        #expect(await next(2, from: &lateIterator) == ["began after", "completed after"])
    }
}

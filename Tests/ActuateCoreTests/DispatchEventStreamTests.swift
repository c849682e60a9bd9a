import ActuateCore
import Testing

@testable import ActuateFixtures
@testable import ActuateTesting

@Suite("Dispatch event stream")
struct DispatchEventStreamTests {
    @Test("delivers began and completed events in order")
    func deliversEvents() async {
        let harness = ActionTestHarness()
        let stream = harness.dispatcher.events()
        _ = await harness.perform(GreetingFeature.sayHello, input: "Ada", presenter: GreetingPresenter())
        var iterator = stream.makeAsyncIterator()
        let began = await iterator.next()
        let completed = await iterator.next()
        guard case .began(let request) = began, case .completed(let same, let outcome) = completed else {
            Issue.record(
                "expected began then completed, got \(String(describing: began)), \(String(describing: completed))"
            )
            return
        }
        #expect(request.actionName == "Say Hello")
        #expect(same.uniqueID == request.uniqueID)
        #expect(outcome.simplifiedOutcome.isSuccess)
    }

    @Test("a slow consumer never blocks dispatch; the buffering policy decides what it sees")
    func slowConsumer() async {
        let harness = ActionTestHarness()
        let newest = harness.dispatcher.events(bufferingPolicy: .bufferingNewest(4))
        let oldest = harness.dispatcher.events(bufferingPolicy: .bufferingOldest(4))
        for index in 0..<20 {
            let outcome = await harness.session.perform(
                GreetingFeature.sayHello,
                input: "n\(index)",
                presenter: GreetingPresenter()
            )
            #expect(outcome.isSuccess)
        }
        #expect(harness.recorder.completedActionNames.count == 20)
        var newestEvents: [String] = []
        for await event in newest {
            newestEvents.append(event.request.inputDescription)
            if newestEvents.count == 4 { break }
        }
        var oldestEvents: [String] = []
        for await event in oldest {
            oldestEvents.append(event.request.inputDescription)
            if oldestEvents.count == 4 { break }
        }
        #expect(newestEvents == ["n18", "n18", "n19", "n19"])
        #expect(oldestEvents == ["n0", "n0", "n1", "n1"])
    }

    @Test("ending the iteration removes the stream's observer")
    func terminationRemovesPlugin() async {
        let harness = ActionTestHarness()
        let before = harness.dispatcher.installedPlugins.count
        do {
            let stream = harness.dispatcher.events()
            #expect(harness.dispatcher.installedPlugins.count == before + 1)
            _ = await harness.session.perform(GreetingFeature.noOp)
            for await _ in stream { break }
        }
        #expect(await eventually { harness.dispatcher.installedPlugins.count == before })
    }
}

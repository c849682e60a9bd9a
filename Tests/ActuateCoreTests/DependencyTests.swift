import Dispatch
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuateTesting

@Suite("Dependencies")
struct DependencyTests {
    @Test("a callback body and an async body read the harness's value, set in one line")
    func harnessValue() async {
        let harness = ActionTestHarness()
        harness.dependencies[GreetingServerKey.self] = PrefixGreetingServer(prefix: "fake")
        let presenter = DependencyPresenter()
        #expect(await harness.perform(DependencyFeature.callbackGreet, input: "a", presenter: presenter).isSuccess)
        #expect(await harness.perform(DependencyFeature.asyncGreet, input: "b", presenter: presenter).isSuccess)
        #expect(presenter.recorded == ["fake:a/test-suffix", "fake:b"])
    }

    @Test("actions an action performs, through another session, inherit the values", arguments: [true, false])
    func nestedInherit(async: Bool) async {
        let harness = ActionTestHarness()
        harness.dependencies[GreetingServerKey.self] = PrefixGreetingServer(prefix: "nested")
        let presenter = DependencyPresenter()
        let outcome =
            async
            ? await harness.perform(DependencyFeature.nestedGreet, input: "x", presenter: presenter)
            : await harness.perform(DependencyFeature.nestedCallbackGreet, input: "x", presenter: presenter)
        #expect(outcome.isSuccess)
        #expect(presenter.recorded == [async ? "nested:x" : "nested:x/test-suffix"])
    }

    @Test("two harnesses with different values run at once without interfering")
    func parallelHarnesses() async {
        await withTaskGroup(of: Bool.self) { group in
            for index in 0..<20 {
                group.addTask {
                    let harness = ActionTestHarness()
                    harness.dependencies[GreetingServerKey.self] = PrefixGreetingServer(prefix: "h\(index)")
                    let presenter = DependencyPresenter()
                    await harness.perform(DependencyFeature.asyncGreet, input: "x", presenter: presenter)
                    return presenter.recorded == ["h\(index):x"]
                }
            }
            for await matched in group { #expect(matched) }
        }
    }

    @Test("a key the test never set fails the test with its name and never reaches the live value")
    func unsetKeyFails() async throws {
        let reachedBefore = LiveGreetingServer.reached.load(ordering: .relaxed)
        let harness = ActionTestHarness()
        var outcome: ActionPerformOutcome?
        await withKnownIssue {
            outcome = await harness.perform(DependencyFeature.asyncGreet, input: "x", presenter: DependencyPresenter())
        } matching: { issue in
            issue.description.contains("'GreetingServerKey', which this test did not set")
        }
        let error = try #require(outcome?.error as? DependencyNotSetError)
        #expect(error.keyName == "GreetingServerKey")
        #expect(LiveGreetingServer.reached.load(ordering: .relaxed) == reachedBefore)
    }

    @Test("outside a test kit, an unset key reads its live value and a set one its value")
    func liveValues() throws {
        #expect(try ActionContext(input: NoInput()).dependency(GreetingSuffixKey.self) == "live-suffix")
        var values = DependencyValues()
        values[GreetingSuffixKey.self] = "set"
        #expect(try ActionContext(input: NoInput(), dependencies: values).dependency(GreetingSuffixKey.self) == "set")
        values[GreetingSuffixKey.self] = nil
        #expect(values[GreetingSuffixKey.self] == nil)
    }

    @Test("a dispatcher with no values set carries none on its requests")
    func noValuesNoStore() {
        let dispatcher = ActionDispatcher(scheduler: TestScheduler())
        #expect(dispatcher.currentDependencies() == nil)
        dispatcher.dependencies[GreetingSuffixKey.self] = "x"
        #expect(dispatcher.currentDependencies() != nil)
        dispatcher.dependencies = DependencyValues()
        #expect(dispatcher.currentDependencies() == nil)
    }
}

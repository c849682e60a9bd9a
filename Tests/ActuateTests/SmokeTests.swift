import Dispatch
import Actuate
import ActuateTesting
import Testing

@Suite("Smoke")
struct SmokeTests {
    @Test("a sync action performs through the harness")
    func performs() async {
        let harness = ActionTestHarness()
        let presenter = RecordingPresenter()
        let outcome = await harness.perform(GreetingFeature.sayHello, input: "Ada", presenter: presenter)
        #expect(outcome?.simplifiedOutcome.isSuccess == true)
        #expect(presenter.calls == ["hello(Ada)"])
        #expect(harness.timeline.snapshot().map(\.actionName) == ["Say Hello"])
    }

    @Test("main queue is drained under swift test")
    func mainQueue() async {
        let value = await withCheckedContinuation { continuation in
            DispatchQueue.main.async { continuation.resume(returning: 42) }
        }
        #expect(value == 42)
    }
}

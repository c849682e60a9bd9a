import ActuateTesting
import Testing

/// This file imports the test kit alone: what it names must come with `import ActuateTesting`.
@Suite("The test kit names the scheduler protocol")
struct TestKitReexportTests {
    /// A type of an app's that takes its clock as `any ActuateScheduler`, as the articles tell it to.
    struct Reminder {
        let scheduler: any ActuateScheduler
    }

    @Test("ActuateScheduler is reachable through import ActuateTesting, and a TestScheduler is one")
    func schedulerProtocolIsReexported() {
        let scheduler = TestScheduler()
        let reminder = Reminder(scheduler: scheduler)
        scheduler.advance(by: .seconds(5))
        #expect(reminder.scheduler.uptime() == .seconds(5))
    }
}

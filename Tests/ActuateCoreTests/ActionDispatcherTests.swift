import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuateTesting

/// A log that several plugins and a test append to.
final class SharedLog: Sendable {
    private let entries = Mutex<[String]>([])

    func append(_ entry: String) { entries.withLock { $0.append(entry) } }

    var all: [String] { entries.withLock { $0 } }
}

/// Appends every notification it hears to a shared log, under its own label.
final class LoggingPlugin: ActionDispatchPlugin {
    let label: String
    let log: SharedLog

    init(_ label: String, log: SharedLog = SharedLog()) {
        self.label = label
        self.log = log
    }

    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        log.append("\(label) begin \(request.action.name)")
    }

    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        log.append("\(label) complete \(request.action.name)")
    }
}

@Suite("Dispatcher")
struct ActionDispatcherTests {
    @Test("the body runs on its declared queue after one hop from another thread")
    func runsOnDeclaredQueue() async {
        let harness = ActionTestHarness()
        let presenter = GreetingPresenter()
        _ = await harness.perform(GreetingFeature.sayHello, input: "Ada", presenter: presenter)
        #expect(presenter.calls.recorded == [.hello("Ada"), .queue("background")])
    }

    @Test("the body runs inline when the caller is already on the action's queue")
    func runsInlineOnSameQueue() async {
        let harness = ActionTestHarness()
        let presenter = GreetingPresenter()
        let order = SharedLog()
        await withCheckedContinuation { continuation in
            TestQueues.background.async {
                harness.session.perform(GreetingFeature.sayHello, input: "inline", presenter: presenter) { _ in
                    order.append("completed on \(TestQueues.current ?? "none")")
                }
                order.append("perform returned")
                continuation.resume()
            }
        }
        #expect(order.all == ["completed on background", "perform returned"])
        #expect(presenter.calls.recorded == [.hello("inline"), .queue("background")])
    }

    @Test("performing never blocks the caller waiting for a busy queue")
    func neverBlocksCaller() async {
        let harness = ActionTestHarness()
        let probe = Probe()
        TestQueues.suspendable.suspend()
        let pending = harness.start(GreetingFeature.suspendable, input: probe, presenter: ())
        probe.log("caller continued")
        #expect(probe.events == ["caller continued"])
        #expect(!pending.isCompleted)
        TestQueues.suspendable.resume()
        #expect(await pending.outcome()?.simplifiedOutcome.isSuccess == true)
        #expect(probe.events == ["caller continued", "body"])
    }

    @Test("every plugin hears willBegin before the body and didComplete before the caller")
    func pluginOrder() async {
        let log = SharedLog()
        let harness = ActionTestHarness(plugins: [
            LoggingPlugin("first", log: log), LoggingPlugin("second", log: log),
        ])
        let presenter = GreetingPresenter()
        await withCheckedContinuation { continuation in
            harness.session.perform(GreetingFeature.sayHello, input: "x", presenter: presenter) { _ in
                log.append("caller (body had run: \(presenter.calls.count > 0))")
                continuation.resume()
            }
        }
        #expect(
            log.all == [
                "first begin Say Hello", "second begin Say Hello", "first complete Say Hello",
                "second complete Say Hello", "caller (body had run: true)",
            ]
        )
    }

    @Test("a test that awaits a perform can read the timeline straight away")
    func timelineReadableAfterAwait() async {
        let harness = ActionTestHarness()
        let outcome = await harness.session.perform(
            GreetingFeature.sayHello,
            input: "Ada",
            presenter: GreetingPresenter()
        )
        #expect(outcome.isSuccess)
        #expect(harness.timeline.snapshot().last?.outcome == .success)
    }

    @Test("request ids are unique and increase in dispatch order")
    func uniqueIncreasingIDs() async {
        let harness = ActionTestHarness()
        for _ in 0..<5 { _ = await harness.session.perform(GreetingFeature.noOp) }
        let sequential = harness.recorder.events.compactMap { event -> UInt64? in
            if case .began(let request) = event { request.uniqueID } else { nil }
        }
        #expect(sequential == sequential.sorted())
        #expect(Set(sequential).count == 5)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<200 { group.addTask { _ = await harness.session.perform(GreetingFeature.noOp) } }
        }
        let all = harness.recorder.events.compactMap { event -> UInt64? in
            if case .began(let request) = event { request.uniqueID } else { nil }
        }
        #expect(all.count == 205)
        #expect(Set(all).count == 205)
        #expect(all.dropFirst(5).min()! > sequential.max()!)
    }

    @Test("an observer added while an action is in flight hears neither half of it")
    func pluginAddedMidFlight() async {
        let harness = ActionTestHarness()
        let late = LoggingPlugin("late")
        let probe = Probe()
        let pending = harness.start(GreetingFeature.probe, input: probe, presenter: GreetingPresenter())
        #expect(await eventually { probe.events.count == 1 })
        harness.dispatcher.add(plugin: late)
        probe.completeKept(.success)
        _ = await pending.outcome()
        #expect(late.log.all.isEmpty)
        _ = await harness.session.perform(GreetingFeature.noOp)
        #expect(late.log.all == ["late begin No Op", "late complete No Op"])
    }

    @Test("an observer removed while an action is in flight still hears its completion, then nothing")
    func pluginRemovedMidFlight() async {
        let plugin = LoggingPlugin("removed")
        let harness = ActionTestHarness(plugins: [plugin])
        let probe = Probe()
        let pending = harness.start(GreetingFeature.probe, input: probe, presenter: GreetingPresenter())
        #expect(await eventually { probe.events.count == 1 })
        harness.dispatcher.remove(plugin: plugin)
        probe.completeKept(.success)
        _ = await pending.outcome()
        _ = await harness.session.perform(GreetingFeature.noOp)
        #expect(plugin.log.all == ["removed begin Probe", "removed complete Probe"])
        #expect(harness.dispatcher.installedPlugins.count == 2)
    }

    @Test("the context carries input, source, session and initiator")
    func contextContents() async throws {
        let harness = ActionTestHarness(sessionName: "background-sync")
        _ = await harness.session.perform(
            GreetingFeature.sayHello,
            input: "Ada",
            presenter: GreetingPresenter(),
            userInitiated: false,
            source: .openURL
        )
        let request = try #require(harness.recorder.events.first?.request)
        #expect(request.inputDescription == "Ada")
        #expect(request.source == .openURL)
        #expect(request.sessionName == "background-sync")
        #expect(request.userInitiated == false)
        #expect(request.date == harness.scheduler.now())
        #expect(request.featurePath == GreetingFeature.identifier)
    }

    @Test("the short forms perform actions with no input or no presenter")
    func shortForms() async {
        let harness = ActionTestHarness()
        let noBoth = await harness.session.perform(GreetingFeature.noOp)
        let noPresenter = await harness.session.perform(
            GreetingFeature.signIn,
            input: SignInInput(email: "a@b.c", password: Redacted("pw"))
        )
        let completion = await withCheckedContinuation { continuation in
            harness.session.perform(GreetingFeature.noOp) { continuation.resume(returning: $0) }
        }
        #expect(noBoth.isSuccess && noPresenter.isSuccess && completion.isSuccess)
        #expect(harness.recorder.completedActionNames == ["No Op", "Sign In", "No Op"])
    }
}

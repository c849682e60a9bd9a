import ActuateTesting
import Dispatch
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuatePlugins

private enum StagesQueue {
    static let queue = DispatchQueue(label: "actuate.tests.plugin-stages")
}

private final class ChargeAction: Action {
    typealias InputType = String
    static var queue: DispatchQueue { StagesQueue.queue }

    static func perform(
        context: ActionContext<String>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        completion.completedSync(.success)
    }
}

private final class ChargesFeature: Feature {
    static let charge = action(ChargeAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(charge)
    }
}

/// What the plugins of one test share: the calls in order, and what the enrichment plugin prepared.
private final class StageLog: Sendable {
    private let state = Mutex<(calls: [String], labels: [UInt64: String])>(([], [:]))

    var calls: [String] { state.withLock { $0.calls } }

    func append(_ call: String) { state.withLock { $0.calls.append(call) } }

    func label(_ id: UInt64, _ label: String) { state.withLock { $0.labels[id] = label } }

    func label(of id: UInt64) -> String? { state.withLock { $0.labels[id] } }
}

/// Prepares a redacted label for each request, for the recorders to use.
private final class RedactingPlugin: ActionDispatchPlugin {
    let log: StageLog
    init(log: StageLog) { self.log = log }

    var stage: PluginStage { .enrichment }

    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        log.append("enrichment: begin")
        log.label(request.uniqueID, String(request.inputDescription.prefix(2)) + "***")
    }

    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        log.append("enrichment: complete")
    }
}

/// Records the label the enrichment plugin prepared; at the default stage.
private final class LabelRecorder: ActionDispatchPlugin {
    let name: String
    let log: StageLog
    init(_ name: String, log: StageLog) {
        self.name = name
        self.log = log
    }

    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        log.append("\(name): begin \(log.label(of: request.uniqueID) ?? "unlabelled")")
    }

    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        log.append("\(name): complete")
    }
}

private final class StagedPlugin: ActionDispatchPlugin {
    let stage: PluginStage
    let log: StageLog
    init(_ stage: PluginStage, log: StageLog) {
        self.stage = stage
        self.log = log
    }

    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) { log.append("\(stage): begin") }

    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        log.append("\(stage): complete")
    }
}

@Suite("Plugin stages")
struct PluginStagesTests {
    @Test("a redaction plugin added last still runs before the recorders, which keep their insertion order")
    func enrichmentAddedLastRunsFirst() async {
        let log = StageLog()
        let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: RecordingDiagnostics())
        dispatcher.add(plugin: StagedPlugin(.after, log: log))
        dispatcher.add(plugin: LabelRecorder("first recorder", log: log))
        dispatcher.add(plugin: LabelRecorder("second recorder", log: log))
        dispatcher.add(plugin: StagedPlugin(.before, log: log))
        dispatcher.add(plugin: RedactingPlugin(log: log))
        let session = ActionSession(named: "stages", dispatcher: dispatcher)

        let outcome = await session.perform(ChargesFeature.charge, input: "4111111111111111")

        #expect(outcome.isSuccess)
        #expect(
            log.calls == [
                "before: begin", "enrichment: begin", "first recorder: begin 41***", "second recorder: begin 41***",
                "after: begin", "before: complete", "enrichment: complete", "first recorder: complete",
                "second recorder: complete", "after: complete",
            ]
        )
        #expect(
            dispatcher.installedPlugins.map(\.stage) == [.before, .enrichment, .observation, .observation, .after]
        )
    }

    @Test("the shipped plugins record in the observation stage; activities and the event stream come after")
    func shippedStages() async {
        let log = StageLog()
        let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: RecordingDiagnostics())
        let activities = ActivitiesPlugin(publisher: RecordingActivityPublisher(), activityTypePrefix: "test")
        dispatcher.add(plugin: activities)
        dispatcher.add(plugin: StagedPlugin(.after, log: log))
        let stream = dispatcher.events()
        dispatcher.add(plugin: Timeline(maxEntries: 1))
        dispatcher.add(plugin: ActionStacksPlugin())
        dispatcher.add(plugin: AnalyticsPlugin(provider: NoOpAnalyticsProvider()))
        _ = stream
        let installed = dispatcher.installedPlugins
        #expect(installed.map(\.stage) == [.observation, .observation, .observation, .after, .after, .after])
        #expect(installed.first is Timeline)
        #expect(installed[3] is ActivitiesPlugin)
    }
}

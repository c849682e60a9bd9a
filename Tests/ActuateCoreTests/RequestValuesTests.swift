import ActuateTesting
import Dispatch
import Synchronization
import Testing

@testable import ActuateCore

private enum ValueQueues {
    static let first = DispatchQueue(label: "actuate.tests.request-values.first")
    static let second = DispatchQueue(label: "actuate.tests.request-values.second")
}

private final class ScoreOnFirstQueueAction: Action {
    typealias InputType = Int
    static var queue: DispatchQueue { ValueQueues.first }

    static func perform(context: ActionContext<Int>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

private final class ScoreOnSecondQueueAction: Action {
    typealias InputType = Int
    static var queue: DispatchQueue { ValueQueues.second }

    static func perform(context: ActionContext<Int>, presenter: Void, completion: Completion) -> Completion.Status {
        // Completes later, from another queue, so that requests of both actions are in flight together.
        let deferred = completion.willCompleteAsync()
        ValueQueues.first.async { deferred.completed(.success) }
        return deferred
    }
}

private final class ScoringFeature: Feature {
    static let first = action(ScoreOnFirstQueueAction.self)
    static let second = action(ScoreOnSecondQueueAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(first)
        actions.declare(second)
    }
}

private enum Keys {
    static let score = RequestValueKey<String>("score")
    static let late = RequestValueKey<String>("late")
}

/// What the plugins of one test saw, in order.
private final class ValueLog: Sendable {
    private let state = Mutex<[String]>([])
    private let kept = Mutex<[ActionRequest<ScoringFeature, ScoreOnFirstQueueAction>]>([])

    var entries: [String] { state.withLock { $0 } }

    func append(_ entry: String) { state.withLock { $0.append(entry) } }

    func keep<F, A>(_ request: ActionRequest<F, A>) {
        guard let request = request as? ActionRequest<ScoringFeature, ScoreOnFirstQueueAction> else { return }
        kept.withLock { $0.append(request) }
    }

    var keptRequests: [ActionRequest<ScoringFeature, ScoreOnFirstQueueAction>] { kept.withLock { $0 } }
}

/// The input a request was performed with, for plugins that are generic over the request.
private func input<F, A>(of request: ActionRequest<F, A>) -> Int {
    request.context.input as? Int ?? -1
}

/// Attaches a score made from the input, except for inputs divisible by `skipEvery`; tries again on completion.
private final class ScoringPlugin: ActionDispatchPlugin {
    let stage: PluginStage
    let skipEvery: Int
    let log: ValueLog

    init(stage: PluginStage = .enrichment, skipEvery: Int = .max, log: ValueLog) {
        self.stage = stage
        self.skipEvery = skipEvery
        self.log = log
    }

    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        let input = input(of: request)
        guard input % skipEvery != 0 else { return }
        let attached = request.attach("score \(input)", for: Keys.score)
        log.append("\(stage) attach: \(attached)")
    }

    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        log.append("\(stage) attach on completion: \(request.attach("changed", for: Keys.score))")
    }
}

/// Reads the score in both callbacks, and checks it against the request's own input.
private final class ScoreReader: ActionDispatchPlugin {
    let stage: PluginStage
    let name: String
    let log: ValueLog
    let mismatches = Mutex(0)

    init(_ name: String, stage: PluginStage = .observation, log: ValueLog) {
        self.name = name
        self.stage = stage
        self.log = log
    }

    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        record("begin", request)
    }

    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        record("complete", request)
        log.keep(request)
    }

    private func record<F, A>(_ callback: String, _ request: ActionRequest<F, A>) {
        let value = request.value(for: Keys.score)
        log.append("\(name) \(callback): \(value ?? "none")")
        if let value, value != "score \(input(of: request))" { mismatches.withLock { $0 += 1 } }
    }
}

/// Logs how many requests the dispatcher's value table holds, when a request begins.
private final class TableProbe: ActionDispatchPlugin {
    let log: ValueLog
    init(log: ValueLog) { self.log = log }

    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        log.append("table: \(RequestValueTable.numbered(request.valueTableNumber)?.entryCount ?? -1) entries")
    }

    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {}
}

/// Tries to attach from the observation stage, where the values are sealed.
private final class LateAttacher: ActionDispatchPlugin {
    let log: ValueLog
    init(log: ValueLog) { self.log = log }

    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        log.append("observation attach: \(request.attach("late", for: Keys.late))")
    }

    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {}
}

/// Reads the late key, from the stage before the plugin that tried to attach it.
private final class LateReader: ActionDispatchPlugin {
    let log: ValueLog
    init(log: ValueLog) { self.log = log }
    var stage: PluginStage { .before }

    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        log.append("before sees late: \(request.value(for: Keys.late) ?? "none")")
    }

    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        log.append("before sees late on completion: \(request.value(for: Keys.late) ?? "none")")
    }
}

private func makeDispatcher() -> ActionDispatcher {
    ActionDispatcher(scheduler: TestScheduler(), diagnostics: RecordingDiagnostics())
}

@Suite("Request values")
struct RequestValuesTests {
    @Test("an enrichment plugin's value reaches the observation and after plugins in both callbacks")
    func enrichmentToObservation() async {
        let log = ValueLog()
        let dispatcher = makeDispatcher()
        dispatcher.add(plugin: ScoreReader("after", stage: .after, log: log))
        dispatcher.add(plugin: ScoreReader("recorder", log: log))
        dispatcher.add(plugin: ScoringPlugin(log: log))
        let session = ActionSession(named: "values", dispatcher: dispatcher)

        let outcome = await session.perform(ScoringFeature.first, input: 7)

        #expect(outcome.isSuccess)
        #expect(
            log.entries == [
                "enrichment attach: true", "recorder begin: score 7", "after begin: score 7",
                "enrichment attach on completion: false", "recorder complete: score 7", "after complete: score 7",
            ]
        )
    }

    @Test("values attach only in the before and enrichment stages: later attaches are refused and never seen")
    func sealedAfterEnrichment() async {
        let log = ValueLog()
        let dispatcher = makeDispatcher()
        dispatcher.add(plugin: LateAttacher(log: log))
        dispatcher.add(plugin: LateReader(log: log))
        dispatcher.add(plugin: ScoringPlugin(stage: .before, log: log))
        dispatcher.add(plugin: ScoreReader("enricher", stage: .enrichment, log: log))
        let session = ActionSession(named: "values", dispatcher: dispatcher)

        await session.perform(ScoringFeature.first, input: 3)

        #expect(
            log.entries == [
                "before sees late: none", "before attach: true", "enricher begin: score 3",
                "observation attach: false", "before sees late on completion: none",
                "before attach on completion: false", "enricher complete: score 3",
            ]
        )
    }

    @Test("with no before or enrichment plugin, a request has no values and refuses every attach")
    func noValueStages() async {
        let log = ValueLog()
        let dispatcher = makeDispatcher()
        dispatcher.add(plugin: ScoringPlugin(stage: .observation, log: log))
        dispatcher.add(plugin: ScoreReader("after", stage: .after, log: log))
        let session = ActionSession(named: "values", dispatcher: dispatcher)

        await session.perform(ScoringFeature.first, input: 5)

        #expect(
            log.entries == [
                "observation attach: false", "after begin: none", "observation attach on completion: false",
                "after complete: none",
            ]
        )
        #expect(log.keptRequests.count == 1)
        #expect(log.keptRequests.allSatisfy { $0.valueTableNumber == 0 })
    }

    @Test("a table holds only requests in flight with values; a kept request reads nothing after completion")
    func keptRequests() async {
        let log = ValueLog()
        let dispatcher = makeDispatcher()
        dispatcher.add(plugin: ScoringPlugin(skipEvery: 2, log: log))
        dispatcher.add(plugin: ScoreReader("recorder", log: log))
        dispatcher.add(plugin: TableProbe(log: log))
        let session = ActionSession(named: "values", dispatcher: dispatcher)

        await session.perform(ScoringFeature.first, input: 1)
        await session.perform(ScoringFeature.first, input: 2)

        // In flight, the request with a value has an entry; the one without was forgotten when it was sealed.
        #expect(log.entries.filter { $0.hasPrefix("table") } == ["table: 1 entries", "table: 0 entries"])
        let kept = log.keptRequests
        #expect(kept.count == 2)
        #expect(kept.map { $0.value(for: Keys.score) } == [nil, nil])
        #expect(kept.map { $0.attach("later", for: Keys.score) } == [false, false])
        #expect(kept.map { RequestValueTable.numbered($0.valueTableNumber)?.entryCount } == [0, 0])
    }

    @Test("values never leak between requests, with dispatches in flight on two queues at once")
    func concurrentRequests() async {
        let log = ValueLog()
        let dispatcher = makeDispatcher()
        dispatcher.add(plugin: ScoringPlugin(skipEvery: 3, log: log))
        let reader = ScoreReader("recorder", log: log)
        dispatcher.add(plugin: reader)
        let session = ActionSession(named: "values", dispatcher: dispatcher)
        let count = 400

        await withTaskGroup(of: Void.self) { group in
            for input in 1...count {
                group.addTask {
                    if input.isMultiple(of: 2) {
                        await session.perform(ScoringFeature.first, input: input)
                    } else {
                        await session.perform(ScoringFeature.second, input: input)
                    }
                }
            }
        }

        let entries = log.entries
        let unscored = (1...count).filter { $0.isMultiple(of: 3) }.count
        #expect(reader.mismatches.withLock { $0 } == 0)
        #expect(entries.filter { $0.hasPrefix("recorder begin: score") }.count == count - unscored)
        #expect(entries.filter { $0.hasPrefix("recorder complete: score") }.count == count - unscored)
        #expect(entries.filter { $0 == "recorder begin: none" }.count == unscored)
        #expect(entries.filter { $0 == "recorder complete: none" }.count == unscored)
    }
}

import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins
@testable import ActuateReporting
@testable import ActuateTesting

/// A directory unique to one test, deleted when the value is released.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appending(path: "actuate-personalization-\(UUID().uuidString)")
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func appending(_ component: String) -> URL {
        url.appending(path: component)
    }
}

/// A decision source that answers from a script and records every request.
final class ScriptedDecisionSource: DecisionSource {
    enum Answer: Sendable {
        case result(TrackerResult)
        case failure(String)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private struct State {
        var answers: [Answer]
        var fallback: Answer
        var requests: [DecisionRequest] = []
    }

    let isIncremental: Bool
    private let state: Mutex<State>

    init(incremental: Bool = true, answers: [Answer] = [], fallback: Answer = .result(.empty)) {
        isIncremental = incremental
        state = Mutex(State(answers: answers, fallback: fallback))
    }

    func decide(_ request: DecisionRequest) async throws -> TrackerResult {
        let answer = state.withLock { state -> Answer in
            state.requests.append(request)
            return state.answers.isEmpty ? state.fallback : state.answers.removeFirst()
        }
        switch answer {
        case .result(let result): return result
        case .failure(let message): throw Failure(description: message)
        }
    }

    func setFallback(_ answer: Answer) {
        state.withLock { $0.fallback = answer }
    }

    var requests: [DecisionRequest] { state.withLock { $0.requests } }
}

/// A tracker wired as an app would wire it: a dispatcher with a timeline and the reporting plugin, a reporter
/// over a memory store, all on one virtual clock, and the tracker's files in a temporary directory.
struct TrackerFixture {
    let harness: ActionTestHarness
    let store: MemoryEventStore
    let reporter: Reporter
    let directory: TemporaryDirectory
    let tracker: Tracker
    let errors: ErrorRecorder

    init(source: any DecisionSource = ScriptedDecisionSource(), directory: TemporaryDirectory = TemporaryDirectory()) {
        let harness = ActionTestHarness()
        let store = MemoryEventStore()
        let reporter = Reporter(
            store: store,
            delivery: nil,
            scheduler: harness.scheduler,
            identity: Identity(storage: MemoryIdentityStorage())
        )
        harness.dispatcher.add(plugin: ReportingPlugin(reporter: reporter))
        let errors = ErrorRecorder()
        self.harness = harness
        self.store = store
        self.reporter = reporter
        self.directory = directory
        self.errors = errors
        self.tracker = Tracker(
            source: source,
            reporter: reporter,
            directory: directory.url,
            session: harness.session,
            onError: { errors.append($0) }
        )
    }

    /// A new launch: a new reporter, dispatcher and tracker over the same directory, once this tracker's files
    /// are written.
    func relaunched(source: any DecisionSource) async -> TrackerFixture {
        await tracker.waitForWrites()
        return TrackerFixture(source: source, directory: directory)
    }

    /// Every stored event except session boundaries, oldest first, once pending reports have completed.
    func events() async throws -> [ReportEvent] {
        await tracker.waitForReports()
        return try store.fetch(count: 10_000, maxBytes: .max).filter { !$0.type.hasPrefix("session_") }
    }

    /// The event types, in order.
    func eventTypes() async throws -> [String] {
        try await events().map(\.type)
    }
}

/// Collects tracker errors.
final class ErrorRecorder: Sendable {
    private let errors = Mutex<[TrackerError]>([])

    func append(_ error: TrackerError) {
        errors.withLock { $0.append(error) }
    }

    var all: [TrackerError] { errors.withLock { $0 } }
}

extension ContentAction {
    /// An HTML banner for tests.
    static func banner(id: Int = 7, name: String = "Spring banner", tracker: Tracker? = nil) -> ContentAction {
        ContentAction(
            id: id,
            name: name,
            contentType: "text/html",
            content: "<a href=\"https://shop.example.com/spring\">Spring sale</a>",
            tracker: tracker
        )
    }
}

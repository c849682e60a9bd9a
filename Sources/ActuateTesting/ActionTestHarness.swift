import Actuate
import Dispatch
import Synchronization
import Testing

/// Performs one action at a time in an isolated dispatcher and returns its outcome, failing the test with a
/// clear message if the action never completes or completes twice.
///
/// No global setup is needed: each harness has its own ``TestScheduler``, dispatcher, session, recorder and
/// diagnostics, so tests that use harnesses run in parallel safely.
///
/// ```swift
/// @Test func addsItem() async {
///     let harness = ActionTestHarness()
///     let presenter = MockCartPresenter()
///     let outcome = await harness.perform(ShoppingCartFeature.addItem, input: "sku-1", presenter: presenter)
///     #expect(outcome?.simplifiedOutcome.isSuccess == true)
///     #expect(presenter.calls == ["show(1)"])
///     #expect(harness.timeline.snapshot().map(\.actionName) == ["Add Item"])
/// }
/// ```
public final class ActionTestHarness: Sendable {
    /// The virtual clock. Advance it to drive time-dependent actions and the completion watchdog.
    public let scheduler: TestScheduler
    /// Every diagnostic the dispatcher reported.
    public let diagnostics: RecordingDiagnostics
    /// Every begin and completion.
    public let recorder: RecordingObserver
    /// A timeline of the harness's actions.
    public let timeline: Timeline
    /// The harness's dispatcher.
    public let dispatcher: ActionDispatcher
    /// The session actions run in.
    public let session: ActionSession
    /// How long, in real time, ``perform(_:input:presenter:userInitiated:source:sourceLocation:)`` waits for a
    /// completion before failing the test.
    public let realTimeLimit: Duration

    /// Creates a harness.
    ///
    /// - Parameters:
    ///   - sessionName: The session's name. The default is `test`.
    ///   - completionTimeout: The dispatcher's watchdog timeout, on the virtual clock.
    ///   - realTimeLimit: The real-time safety limit for awaiting a completion. The default is 5 seconds.
    ///   - observers: Extra plugins to install after the recorder and timeline.
    public init(
        sessionName: String = "test",
        completionTimeout: Duration = ActionDispatcher.defaultCompletionTimeout,
        realTimeLimit: Duration = .seconds(5),
        observers: [any ActionDispatchObserver] = []
    ) {
        let scheduler = TestScheduler()
        let diagnostics = RecordingDiagnostics()
        self.scheduler = scheduler
        self.diagnostics = diagnostics
        self.recorder = RecordingObserver()
        self.timeline = Timeline(maxEntries: 1_000)
        self.realTimeLimit = realTimeLimit
        self.dispatcher = ActionDispatcher(
            scheduler: scheduler,
            diagnostics: diagnostics,
            completionTimeout: completionTimeout
        )
        dispatcher.add(observer: recorder)
        dispatcher.add(observer: timeline)
        for observer in observers { dispatcher.add(observer: observer) }
        self.session = ActionSession(named: sessionName, dispatcher: dispatcher)
    }

    /// Performs an action and returns its outcome, or nil (after recording a test issue) if it never
    /// completed within ``realTimeLimit``. Records an issue, too, if it completed twice.
    @discardableResult
    public func perform<F: FeatureDefinition, A: Action>(
        _ binding: StaticActionBinding<F, A>,
        input: A.InputType,
        presenter: A.PresenterType,
        userInitiated: Bool = true,
        source: ActionSource = .application,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ActionPerformOutcome? {
        let pending = start(binding, input: input, presenter: presenter, userInitiated: userInitiated, source: source)
        let outcome = await pending.outcome(within: realTimeLimit)
        guard let outcome else {
            Issue.record(
                """
                '\(A.name)' never completed within \(realTimeLimit) of real time. Its body returned \
                `completion.willCompleteAsync()` but `completed(_:)` was never called on that status. Complete \
                it on every path (errors and early returns included), or, if it waits for virtual time, use \
                `start(...)` and advance `scheduler` before awaiting `outcome(within:)`.
                """,
                sourceLocation: sourceLocation
            )
            return nil
        }
        await Task.yield()
        checkCompletedOnce(A.name, sourceLocation: sourceLocation)
        return outcome
    }

    /// Starts an action without waiting for it, for actions that complete when virtual time moves.
    public func start<F: FeatureDefinition, A: Action>(
        _ binding: StaticActionBinding<F, A>,
        input: A.InputType,
        presenter: A.PresenterType,
        userInitiated: Bool = true,
        source: ActionSource = .application
    ) -> PendingActionOutcome {
        let pending = PendingActionOutcome()
        session.performDetailed(
            binding,
            input: input,
            presenter: presenter,
            userInitiated: userInitiated,
            source: source
        ) { pending.resolve($0) }
        return pending
    }

    /// Records a test issue for every diagnostic reported so far, for tests that expect a clean run.
    public func expectNoDiagnostics(sourceLocation: SourceLocation = #_sourceLocation) {
        for diagnostic in diagnostics.diagnostics {
            Issue.record("Unexpected diagnostic: \(diagnostic)", sourceLocation: sourceLocation)
        }
    }

    private func checkCompletedOnce(_ actionName: String, sourceLocation: SourceLocation) {
        for diagnostic in diagnostics.diagnostics
        where diagnostic.kind == .completedTwice && diagnostic.actionName == actionName {
            Issue.record(
                "'\(actionName)' completed more than once: \(diagnostic.message)",
                sourceLocation: sourceLocation
            )
        }
    }
}

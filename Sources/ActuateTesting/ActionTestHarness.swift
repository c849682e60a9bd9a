import Actuate
import Dispatch
import Testing

/// Performs actions in an isolated dispatcher and returns their outcomes, strictly: the test fails, with a
/// message that says how to fix it, when an action never completes or the dispatcher reports a diagnostic
/// the test did not expect.
///
/// No global setup is needed: each harness has its own ``TestScheduler``, dispatcher, session, recorder and
/// diagnostics, so tests that use harnesses run in parallel safely.
///
/// <!-- readme: repeats README.md -->
/// ```swift
/// @Test func addsItem() async {
///     let harness = ActionTestHarness()
///     let cart = MockCart()
///     #expect(await harness.perform(CartFeature.addItem, input: "sku-1", presenter: cart).isSuccess)
///     #expect(cart.calls.recorded == [.showCart(["sku-1"])])
/// }
/// ```
///
/// **Strict by default.** Every diagnostic (a double completion, a foreign status, an action that never
/// completed by the virtual clock, an undeclared action, a plugin failure) fails the test unless the test
/// expects it: with ``expectDiagnostic(_:sourceLocation:)`` after the action, or by kind with
/// `expectedDiagnostics:`. The harness checks before each `perform` and `start`, in ``checkDiagnostics(sourceLocation:)``,
/// and when it is released at the end of the test, and reports each diagnostic at the line that performed the
/// request it is about.
public final class ActionTestHarness: Sendable {
    /// The virtual clock. Advance it to drive time-dependent actions and the completion watchdog.
    public let scheduler: TestScheduler
    /// Every diagnostic the dispatcher reported.
    public let diagnostics: RecordingDiagnostics
    /// Every begin and completion.
    public let recorder: RecordingPlugin
    /// A timeline of the harness's actions.
    public let timeline: Timeline
    /// The harness's dispatcher.
    public let dispatcher: ActionDispatcher
    /// The session actions run in.
    public let session: ActionSession
    /// How long, in real time, ``perform(_:input:presenter:userInitiated:source:sourceLocation:)`` waits for a
    /// completion once the action's body has returned, before failing the test.
    let realTimeLimit: Duration
    /// How much longer than `realTimeLimit` `perform` waits in all, for a body that never returns. Work that
    /// other tests put on a shared queue, or a loaded machine, can delay a body by this much before it begins.
    let bodyReturnAllowance: Duration
    private let expectations: DiagnosticExpectations
    private let unsetDependencies = UnsetDependencies()
    private let creation: SourceLocation

    /// Creates a harness.
    ///
    /// - Parameters:
    ///   - sessionName: The session's name. The default is `test`.
    ///   - completionTimeout: The dispatcher's watchdog timeout, on the virtual clock; 10 seconds by default.
    ///   - realTimeLimit: The real-time safety limit for awaiting a completion after the action's body has
    ///     returned. The default is 5 seconds.
    ///   - plugins: Extra plugins to install after the recorder and timeline.
    ///   - expectedDiagnostics: Kinds of diagnostic the test expects any number of times; every other
    ///     diagnostic fails the test unless ``expectDiagnostic(_:sourceLocation:)`` accounts for it.
    ///   - sourceLocation: Where to report diagnostics that no perform of this harness caused.
    public convenience init(
        sessionName: String = "test",
        completionTimeout: Duration = .seconds(10),
        realTimeLimit: Duration = .seconds(5),
        plugins: [any ActionDispatchPlugin] = [],
        expectedDiagnostics: Set<ActuateDiagnostic.Kind> = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        self.init(
            sessionName: sessionName,
            completionTimeout: completionTimeout,
            realTimeLimit: realTimeLimit,
            bodyReturnAllowance: .seconds(120),
            plugins: plugins,
            expectedDiagnostics: expectedDiagnostics,
            sourceLocation: sourceLocation
        )
    }

    /// Creates a harness that waits `realTimeLimit + bodyReturnAllowance` in all for a body to return.
    init(
        sessionName: String,
        completionTimeout: Duration,
        realTimeLimit: Duration,
        bodyReturnAllowance: Duration,
        plugins: [any ActionDispatchPlugin],
        expectedDiagnostics: Set<ActuateDiagnostic.Kind>,
        sourceLocation: SourceLocation
    ) {
        let scheduler = TestScheduler()
        let diagnostics = RecordingDiagnostics()
        self.scheduler = scheduler
        self.diagnostics = diagnostics
        self.recorder = RecordingPlugin()
        self.timeline = Timeline(maxEntries: 1_000)
        self.realTimeLimit = realTimeLimit
        self.bodyReturnAllowance = bodyReturnAllowance
        self.expectations = DiagnosticExpectations(expectedKinds: expectedDiagnostics)
        self.creation = sourceLocation
        self.dispatcher = ActionDispatcher(
            scheduler: scheduler,
            diagnostics: diagnostics,
            completionTimeout: completionTimeout
        )
        dispatcher.add(plugin: recorder)
        dispatcher.add(plugin: timeline)
        for plugin in plugins { dispatcher.add(plugin: plugin) }
        self.session = ActionSession(named: sessionName, dispatcher: dispatcher)
        dispatcher.dependencies = DependencyValues(unsetKeyHandler: unsetDependencies.handler)
    }

    deinit {
        expectations.reportUnexpected(in: diagnostics.diagnostics, at: creation)
        unsetDependencies.report(at: creation)
    }

    /// Performs an action and returns its outcome once it has completed and its body has returned.
    ///
    /// If the action does not complete within `realTimeLimit` of its body returning, the test fails with a
    /// message saying how to fix it, and the outcome is a failure with ``ActionNeverCompletedError``. The
    /// limit counts from the moment the action's queue has run its body, so work queued ahead of the action
    /// by other tests does not count against it.
    ///
    /// - Parameters:
    ///   - binding: The feature's binding of the action.
    ///   - input: The input.
    ///   - presenter: The presenter the action drives.
    ///   - userInitiated: Whether the user asked for it directly. The default is `true`.
    ///   - source: Where the request came from. The default is `ActionSource/application`.
    ///   - sourceLocation: Where to report failures.
    /// - Returns: The action's outcome.
    @discardableResult
    public func perform<Binding: ActionBinding>(
        _ binding: Binding,
        input: Binding.ActionType.InputType,
        presenter: Binding.ActionType.PresenterType,
        userInitiated: Bool = true,
        source: ActionSource = .application,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ActionPerformOutcome {
        let pending = start(
            binding,
            input: input,
            presenter: presenter,
            userInitiated: userInitiated,
            source: source,
            sourceLocation: sourceLocation
        )
        // Cancelling the awaiting task cancels the action, as `session.perform` does.
        let outcome = await withTaskCancellationHandler {
            await pending.value(sourceLocation: sourceLocation)
        } onCancel: {
            pending.cancel()
        }
        // The body may still be running (it completed before returning): let it return, so that what it does
        // after completing, such as completing again, is reported before the test goes on. Not when the wait gave
        // up: the queue may never run again, and the failure is already reported.
        if pending.isCompleted { await Self.drain(Binding.ActionType.queue) }
        unsetDependencies.report(at: sourceLocation)
        return outcome
    }

    /// Starts an action without waiting for it, for actions that complete when virtual time moves.
    ///
    /// - Parameters:
    ///   - binding: The feature's binding of the action.
    ///   - input: The input.
    ///   - presenter: The presenter the action drives.
    ///   - userInitiated: Whether the user asked for it directly. The default is `true`.
    ///   - source: Where the request came from. The default is `ActionSource/application`.
    ///   - sourceLocation: Where to report failures.
    /// - Returns: The outcome to await once the action can complete.
    public func start<Binding: ActionBinding>(
        _ binding: Binding,
        input: Binding.ActionType.InputType,
        presenter: Binding.ActionType.PresenterType,
        userInitiated: Bool = true,
        source: ActionSource = .application,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> PendingActionOutcome {
        checkDiagnostics(sourceLocation: sourceLocation)
        let bodyClock = BodyClock(scheduler: scheduler)
        let cancellation = PerformCancellation()
        let pending = PendingActionOutcome(
            actionName: Binding.ActionType.name,
            queue: Binding.ActionType.queue,
            hasAsyncBody: Binding.ActionType.self is any AsyncAction.Type
                || Binding.ActionType.self is any UIAction.Type,
            realTimeLimit: realTimeLimit,
            bodyReturnAllowance: bodyReturnAllowance,
            bodyClock: bodyClock,
            cancellation: cancellation
        )
        // The request carries the harness's values with the body's virtual time, which its sleeps read.
        let requestID = session.performReturningID(
            binding,
            input: input,
            presenter: presenter,
            userInitiated: userInitiated,
            source: source,
            cancellation: cancellation,
            dependencies: DependencyStore(dispatcher.dependencies, scope: bodyClock)
        ) { pending.resolve($0) }
        pending.identify(requestID)
        expectations.started(requestID, at: sourceLocation)
        return pending
    }

    /// Accounts for one diagnostic of `kind` that the test expects, failing the test if there is none.
    ///
    /// - Parameters:
    ///   - kind: The kind of diagnostic expected.
    ///   - sourceLocation: Where to report its absence.
    /// - Returns: The diagnostic, or nil if none of that kind was reported.
    @discardableResult
    public func expectDiagnostic(
        _ kind: ActuateDiagnostic.Kind,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> ActuateDiagnostic? {
        let reported = diagnostics.diagnostics
        if let diagnostic = expectations.take(kind, from: reported) { return diagnostic }
        let others = reported.map(\.kind.rawValue).joined(separator: ", ")
        Issue.record(
            """
            Expected a \(kind.rawValue) diagnostic, but none was reported that the test had not accounted for. \
            Reported so far: [\(others)].
            """,
            sourceLocation: sourceLocation
        )
        return nil
    }

    /// Fails the test for every diagnostic reported so far that the test did not expect.
    ///
    /// The harness also checks before each `perform` and `start` and when it is released; call this to check
    /// at a point of the test's choosing.
    /// - Parameter sourceLocation: Where to report diagnostics that no perform of this harness caused.
    public func checkDiagnostics(sourceLocation: SourceLocation = #_sourceLocation) {
        expectations.reportUnexpected(in: diagnostics.diagnostics, at: sourceLocation)
        unsetDependencies.report(at: sourceLocation)
    }

    /// The dependency values of the harness's actions, and of the actions they perform.
    ///
    /// A key the test did not set reads its `testValue`; when it has none, reading it fails the test with the
    /// key's name, and the body's `dependency(_:)` throws `DependencyNotSetError`, instead of reaching the live
    /// value. Set a value in one line:
    ///
    /// <!-- readme: repeats Sources/ActuateTesting/ActuateTesting.docc/DependenciesAndVirtualTime.md -->
    /// ```swift
    /// harness.dependencies[NotesServerKey.self] = InMemoryNotesServer()
    /// ```
    ///
    /// Each harness has its own values, so tests that set different ones run in parallel.
    public var dependencies: DependencyValues {
        get { dispatcher.dependencies }
        set {
            var values = newValue
            values.unsetKeyHandler = unsetDependencies.handler
            dispatcher.dependencies = values
        }
    }

    /// Waits until everything submitted to `queue` so far has run.
    private static func drain(_ queue: DispatchQueue) async {
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    }
}

extension ActionTestHarness {
    /// Performs an action that takes no input; see ``perform(_:input:presenter:userInitiated:source:sourceLocation:)``.
    @discardableResult
    public func perform<Binding: ActionBinding>(
        _ binding: Binding,
        presenter: Binding.ActionType.PresenterType,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ActionPerformOutcome where Binding.ActionType.InputType == NoInput {
        await perform(binding, input: .noInput, presenter: presenter, sourceLocation: sourceLocation)
    }

    /// Performs an action that drives no presenter; see ``perform(_:input:presenter:userInitiated:source:sourceLocation:)``.
    @discardableResult
    public func perform<Binding: ActionBinding>(
        _ binding: Binding,
        input: Binding.ActionType.InputType,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ActionPerformOutcome where Binding.ActionType.PresenterType == NoPresenter {
        await perform(binding, input: input, presenter: (), sourceLocation: sourceLocation)
    }

    /// Performs an action that takes no input and drives no presenter.
    @discardableResult
    public func perform<Binding: ActionBinding>(
        _ binding: Binding,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ActionPerformOutcome
    where Binding.ActionType.InputType == NoInput, Binding.ActionType.PresenterType == NoPresenter {
        await perform(binding, input: .noInput, presenter: (), sourceLocation: sourceLocation)
    }

    /// Starts an action that takes no input.
    public func start<Binding: ActionBinding>(
        _ binding: Binding,
        presenter: Binding.ActionType.PresenterType,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> PendingActionOutcome where Binding.ActionType.InputType == NoInput {
        start(binding, input: .noInput, presenter: presenter, sourceLocation: sourceLocation)
    }

    /// Starts an action that drives no presenter.
    public func start<Binding: ActionBinding>(
        _ binding: Binding,
        input: Binding.ActionType.InputType,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> PendingActionOutcome where Binding.ActionType.PresenterType == NoPresenter {
        start(binding, input: input, presenter: (), sourceLocation: sourceLocation)
    }

    /// Starts an action that takes no input and drives no presenter.
    public func start<Binding: ActionBinding>(
        _ binding: Binding,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> PendingActionOutcome
    where Binding.ActionType.InputType == NoInput, Binding.ActionType.PresenterType == NoPresenter {
        start(binding, input: .noInput, presenter: (), sourceLocation: sourceLocation)
    }
}

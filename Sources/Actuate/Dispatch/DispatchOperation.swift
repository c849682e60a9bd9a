import Foundation

/// One performance of an action: its request, its observers and its caller's completion.
///
/// It is the action's completion requirement too, so a dispatch allocates one object for both.
final class DispatchOperation<F: FeatureDefinition, A: Action>: CompletionRequirement<ActionPerformOutcome>,
    @unchecked Sendable
{
    // Safe: `presenter` is written in init and read and cleared once, by `run()`, which the dispatcher calls
    // exactly once; `startUptime` is written by `run()` before the body can complete the requirement, and the
    // requirement's atomic state orders that write before the completion's read. Everything else is immutable.

    let request: ActionRequest<F, A>
    private let observers: [any ActionDispatchObserver]
    private let dispatcher: ActionDispatcher
    private let callerCompletion: (@Sendable (ActionPerformOutcome) -> Void)?
    private var presenter: A.PresenterType?
    private(set) var startUptime: Duration = .zero

    init(
        request: ActionRequest<F, A>,
        presenter: A.PresenterType,
        observers: [any ActionDispatchObserver],
        dispatcher: ActionDispatcher,
        completion: (@Sendable (ActionPerformOutcome) -> Void)?
    ) {
        self.request = request
        self.presenter = presenter
        self.observers = observers
        self.dispatcher = dispatcher
        self.callerCompletion = completion
        super.init()
    }

    /// Tells every observer the action begins, then runs the body and checks the status it returns.
    func run() {
        guard let presenter else { return }
        self.presenter = nil
        if dispatcher.watchdog.timeout != nil { startUptime = dispatcher.scheduler.uptime() }
        for observer in observers { observer.actionWillBegin(request) }
        let status = A.perform(context: request.context, presenter: presenter, completion: self)
        check(status)
    }

    private func check(_ status: CompletionStatus) {
        if status === CompletionStatus.completedSynchronously {
            if !isCompleted { reportForeignStatus() }
            return
        }
        guard let deferred = status as? DeferredStatus, deferred.requirement === self else {
            reportForeignStatus()
            return
        }
        guard !isCompleted else { return }
        dispatcher.watchdog.track(id: request.uniqueID, start: startUptime, summary: neverCompletedDiagnostic())
        if isCompleted { dispatcher.watchdog.untrack(id: request.uniqueID) }
    }

    private func reportForeignStatus() {
        report(
            .foreignCompletionStatus,
            "The body returned a status that does not belong to its own completion requirement. Return the value "
                + "of `completion.completedSync(_:)` or `completion.willCompleteAsync()` from the same `completion`."
        )
        if !isCompleted {
            complete(with: .failure(error: ActuateError.foreignCompletionStatus(action: request.action.name)),
                asynchronously: false)
        }
    }

    override func didComplete(with result: ActionPerformOutcome, asynchronously: Bool) {
        if asynchronously { dispatcher.watchdog.untrack(id: request.uniqueID) }
        for observer in observers { observer.actionDidComplete(request, outcome: result) }
        callerCompletion?(result)
    }

    override func didCompleteAgain(with result: ActionPerformOutcome) {
        report(
            .completedTwice,
            "The completion requirement was completed more than once; the second outcome "
                + "(\(OutcomeDescription.describe(result))) was ignored. Complete exactly once on every path."
        )
    }

    private func neverCompletedDiagnostic() -> ActuateDiagnostic {
        let seconds = dispatcher.watchdog.timeout.map { String(format: "%g", $0.seconds) } ?? "?"
        return diagnostic(
            .neverCompleted,
            "The action has not completed \(seconds) s after it began. Call `completed(_:)` on the status from "
                + "`willCompleteAsync()` on every path, including errors and cancellation."
        )
    }

    private func report(_ kind: ActuateDiagnostic.Kind, _ message: String) {
        dispatcher.diagnostics.report(diagnostic(kind, message))
    }

    private func diagnostic(_ kind: ActuateDiagnostic.Kind, _ message: String) -> ActuateDiagnostic {
        ActuateDiagnostic(
            kind: kind,
            actionName: request.action.name,
            featurePath: request.feature.path.description,
            sessionName: request.sessionName,
            message: message
        )
    }
}

/// An action whose body is an `async throws` function.
///
/// The framework maps the body onto the completion requirement: the returned outcome completes it, a thrown
/// error becomes ``ActionPerformOutcome/failure(error:)``, and it completes exactly once by construction.
///
/// ```swift
/// final class FetchRecommendationsAction: AsyncAction {
///     typealias InputType = String
///     typealias PresenterType = RecommendationsPresenter
///
///     static func perform(context: ActionContext<String>, presenter: RecommendationsPresenter) async throws
///         -> ActionPerformOutcome {
///         let items = try await api.recommendations(for: context.input)
///         await presenter.show(items)
///         return .success
///     }
/// }
/// ```
///
/// **Serial means serial.** The body starts on ``Action/queue`` and resumes there after every suspension, and
/// bodies of async actions that share a queue never interleave: the next one starts only after the previous
/// one has completed, in the order they were performed. A body that performs another action on its own
/// queue runs it at once rather than waiting for itself.
///
/// **Cancellation.** Cancelling the task that awaits `perform` cancels the body's task. A body cancelled
/// before it starts does not run; one that throws `CancellationError` ends with
/// ``ActionCancellationError``; one that ignores cancellation completes normally.
public protocol AsyncAction: Action {
    /// Performs the action.
    ///
    /// - Returns: How the action ended.
    /// - Throws: Any error, which becomes a failure outcome.
    static func perform(context: ActionContext<InputType>, presenter: PresenterType) async throws
        -> ActionPerformOutcome
}

extension AsyncAction {
    public static func perform(
        context: ActionContext<InputType>,
        presenter: PresenterType,
        completion: Completion
    ) -> Completion.Status {
        let status = completion.willCompleteAsync()
        let marker = DispatchQueueMarker.marker(for: queue)
        let task = Task(executorPreference: marker.executor) {
            let outcome = await marker.gate.withGate {
                await AsyncBodyRunner.outcome(cancelled: context.isCancelled) {
                    try await perform(context: context, presenter: presenter)
                }
            }
            status.completed(outcome)
        }
        context.cancellation.onCancel { task.cancel() }
        return status
    }
}

/// Maps an async body's result or error onto an outcome.
enum AsyncBodyRunner {
    static func outcome(
        cancelled: Bool,
        _ body: @Sendable () async throws -> ActionPerformOutcome
    ) async -> ActionPerformOutcome {
        if cancelled || Task.isCancelled {
            return .failure(error: ActionCancellationError(bodyStarted: false))
        }
        do {
            return try await body()
        } catch is CancellationError {
            return .failure(error: ActionCancellationError(bodyStarted: true))
        } catch {
            return .failure(error: error)
        }
    }
}

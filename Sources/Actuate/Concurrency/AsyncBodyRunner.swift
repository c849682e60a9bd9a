/// Runs the body of an ``AsyncAction`` or ``UIAction`` in a task of its own, behind its queue's gate, and maps
/// its result or error onto the action's completion requirement.
///
/// The body is nested where its `perform(context:presenter:completion:)` is called: the dispatcher calls it
/// either inline, in the caller's own context, or after a hop inside the caller's nesting
/// (``ActionNesting/run(inside:_:)``), so ``ActionNesting/ofCaller()`` finds the caller's nesting either way.
enum AsyncBodyRunner {
    /// Starts an ``AsyncAction``'s body on the queue `marker` belongs to.
    ///
    /// - Parameters:
    ///   - marker: The marker of the action's queue.
    ///   - context: The request's context, which carries its cancellation.
    ///   - completion: The action's completion requirement.
    ///   - body: The action's body.
    /// - Returns: The deferred status the body completes.
    static func start<Input: Loggable>(
        on marker: DispatchQueueMarker,
        context: ActionContext<Input>,
        completion: CompletionRequirement<ActionPerformOutcome>,
        _ body: @escaping @Sendable () async throws -> ActionPerformOutcome
    ) -> CompletionStatus {
        let status = completion.willCompleteAsync()
        let nesting = ActionNesting.ofCaller()
        let task = Task(executorPreference: marker.executor) {
            let outcome = await marker.gate.withGate(nestedIn: nesting) {
                await Self.outcome(cancelled: context.isCancelled, body)
            }
            status.completed(outcome)
        }
        context.onCancel(cancelling: task)
        return status
    }

    /// Starts a ``UIAction``'s body on the main actor, behind the main queue's gate.
    ///
    /// - Parameters:
    ///   - context: The request's context, which carries its cancellation.
    ///   - completion: The action's completion requirement.
    ///   - body: The action's body.
    /// - Returns: The deferred status the body completes.
    static func startOnMainActor<Input: Loggable>(
        context: ActionContext<Input>,
        completion: CompletionRequirement<ActionPerformOutcome>,
        _ body: @escaping @MainActor @Sendable () async throws -> ActionPerformOutcome
    ) -> CompletionStatus {
        let status = completion.willCompleteAsync()
        let gate = DispatchQueueMarker.marker(for: .main).gate
        let nesting = ActionNesting.ofCaller()
        let task = Task { @MainActor in
            let outcome = await gate.withGate(nestedIn: nesting) {
                await Self.outcome(cancelled: context.isCancelled) { @MainActor in try await body() }
            }
            status.completed(outcome)
        }
        context.onCancel(cancelling: task)
        return status
    }

    /// Maps an async body's result or error onto an outcome.
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

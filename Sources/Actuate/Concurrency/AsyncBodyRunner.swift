/// Runs the body of an ``AsyncAction`` or ``UIAction`` behind its queue's gate, and maps its result or error onto
/// the action's completion requirement: in a task of its own, or, for an ``AsyncAction`` whose perform a task
/// awaits on the action's queue, in that awaiting task.
///
/// The body is nested where its `perform(context:presenter:completion:)` is called: the dispatcher calls it
/// either inline, in the caller's own context, or after a hop inside the caller's nesting
/// (``ActionNesting/run(inside:_:)``), so ``ActionNesting/ofCaller()`` finds the caller's nesting either way.
@usableFromInline
enum AsyncBodyRunner {
    /// Starts the body of `action` on its queue, in a task that runs on the queue's executor, or hands it to the
    /// task that awaits the perform (``ActionCancellation/handOver(_:)``), which runs it on that executor itself.
    ///
    /// Inlinable, so that it is specialized for each action where the action conforms: the one task closure
    /// captures the context and presenter directly (no second closure to box them), and no generic metadata is
    /// looked up per perform.
    /// - Parameters:
    ///   - action: The action whose body runs.
    ///   - context: The request's context, which carries its cancellation.
    ///   - presenter: The presenter the body drives.
    ///   - completion: The action's completion requirement.
    /// - Returns: The deferred status the body completes.
    @inlinable
    static func start<A: AsyncAction>(
        _ action: A.Type,
        context: ActionContext<A.InputType>,
        presenter: A.PresenterType,
        completion: CompletionRequirement<ActionPerformOutcome>
    ) -> CompletionStatus {
        let marker = DispatchQueueMarker.markerOfRunning(A.queue)
        let status = completion.willCompleteAsync()
        let nesting = ActionNesting.ofCaller()
        let body: ActionCancellation.HandedOverBody = {
            // The request's dependency values are current while the body runs, so that what it performs inherits
            // them, in the awaiting task or a task of its own.
            let outcome = await DependencyStore.run(with: context.fields.dependencies) {
                await run(behind: marker.gate, nestedIn: nesting, cancellation: context.fields.cancellation) {
                    try await A.perform(context: context, presenter: presenter)
                }
            }
            status.completed(outcome)
        }
        // An awaiting task that runs the body itself takes it; otherwise it starts in a task of its own.
        if context.fields.cancellation?.handOver(body) == true { return status }
        let task = Task(executorPreference: marker.executor, operation: body)
        context.fields.cancellation?.onCancel(cancelling: task)
        return status
    }

    /// Runs an async body behind `gate`, inside its nesting, and maps its result or error onto an outcome.
    ///
    /// `nonisolated(nonsending)`, as are the closures it runs, so that it runs where its caller does (the body's
    /// queue) without the switch of executor that a call of an async function otherwise begins with.
    ///
    /// - Parameters:
    ///   - gate: The gate of the body's queue.
    ///   - nesting: The holds of the bodies the caller is nested in.
    ///   - cancellation: The perform's cancellation, if it can be cancelled.
    ///   - body: The action's body.
    /// - Returns: How the body ended.
    @usableFromInline
    nonisolated(nonsending) static func run(
        behind gate: AsyncSerialGate,
        nestedIn nesting: ActionNesting?,
        cancellation: ActionCancellation?,
        _ body: nonisolated(nonsending) @Sendable () async throws -> ActionPerformOutcome
    ) async -> ActionPerformOutcome {
        await gate.withGate(nestedIn: nesting) {
            await outcome(cancelled: cancellation?.isCancelled ?? false, body)
        }
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
        let dependencies = context.fields.dependencies
        let task = Task { @MainActor in
            let outcome = await DependencyStore.run(with: dependencies) {
                await gate.withGate(nestedIn: nesting) {
                    await Self.outcome(cancelled: context.isCancelled) { @MainActor in try await body() }
                }
            }
            status.completed(outcome)
        }
        context.onCancel(cancelling: task)
        return status
    }

    /// Maps an async body's result or error onto an outcome.
    @inline(__always)
    nonisolated(nonsending) static func outcome(
        cancelled: Bool,
        _ body: nonisolated(nonsending) @Sendable () async throws -> ActionPerformOutcome
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

/// What a dispatcher's event stream delivers: an action began, or an action completed.
public enum ActionDispatchEvent: Sendable {
    /// An action is about to run.
    case began(ActionRequestSummary)
    /// An action completed with `outcome`.
    case completed(ActionRequestSummary, outcome: ActionPerformOutcome)

    /// The request the event is about.
    public var request: ActionRequestSummary {
        switch self {
        case .began(let request), .completed(let request, _): request
        }
    }
}

extension ActionDispatcher {
    /// The buffering policy of ``events(bufferingPolicy:)`` when none is given: the newest 1,000 events.
    public static let defaultEventBuffering = AsyncStream<ActionDispatchEvent>.Continuation.BufferingPolicy
        .bufferingNewest(1_000)

    /// A stream of every action that begins and completes from now on, as an alternative to an observer.
    ///
    /// Dispatch never waits for the consumer. Events the consumer has not taken yet wait in a buffer; when it
    /// is full, `policy` decides what is lost: `.bufferingNewest(n)` (the default, with n = 1,000) drops the
    /// oldest, `.bufferingOldest(n)` drops the newest, `.unbounded` keeps everything. The stream ends, and its
    /// observer is removed, when the consumer stops iterating.
    ///
    /// ```swift
    /// for await event in dispatcher.events() {
    ///     if case .completed(let request, let outcome) = event { print(request.actionName, outcome) }
    /// }
    /// ```
    public func events(
        bufferingPolicy policy: AsyncStream<ActionDispatchEvent>.Continuation.BufferingPolicy =
            ActionDispatcher.defaultEventBuffering
    ) -> AsyncStream<ActionDispatchEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: ActionDispatchEvent.self, bufferingPolicy: policy)
        let observer = DispatchEventStreamObserver(continuation: continuation)
        add(observer: observer)
        continuation.onTermination = { [weak self, observer] _ in self?.remove(observer: observer) }
        return stream
    }
}

/// Feeds a dispatcher's events into an `AsyncStream` continuation, which never blocks.
final class DispatchEventStreamObserver: ActionDispatchObserver {
    private let continuation: AsyncStream<ActionDispatchEvent>.Continuation

    init(continuation: AsyncStream<ActionDispatchEvent>.Continuation) {
        self.continuation = continuation
    }

    /// Streams events once the recorders have recorded them: ``PluginStage/after``.
    var stage: PluginStage { .after }

    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        continuation.yield(.began(request.summary))
    }

    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        continuation.yield(.completed(request.summary, outcome: outcome))
    }
}

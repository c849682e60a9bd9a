/// What a dispatcher's event stream delivers: an action began, or an action completed.
public enum ActionDispatchEvent: Sendable {
    /// An action is about to run.
    case began(ActionRequestSummary)
    /// An action completed with `outcome`.
    case completed(ActionRequestSummary, outcome: ActionPerformOutcome)

    /// The request the event is about.
    package var request: ActionRequestSummary {
        switch self {
        case .began(let request), .completed(let request, _): request
        }
    }
}

extension ActionDispatcher {
    /// A stream of every action that begins and completes from now on, as an alternative to a plugin.
    ///
    /// Dispatch never waits for the consumer. Events the consumer has not taken yet wait in a buffer; when it
    /// is full, `policy` decides what is lost: `.bufferingNewest(n)` (the default, with n = 1,000) drops the
    /// oldest, `.bufferingOldest(n)` drops the newest, `.unbounded` keeps everything. The stream ends, and is
    /// released, when the consumer stops iterating.
    ///
    /// A stream hears an action's begin and completion, or neither: it hears every action that begins after
    /// the stream was created. Every stream of a dispatcher is fed by one plugin in the ``PluginStage/after``
    /// stage, added by the first call to `events()`: streams hear an action after the plugins of the earlier
    /// stages and, among the `after` plugins, in the place of that first call. Every stream receives the events
    /// in the same order. While any stream is live, that plugin is one of the dispatcher's
    /// installed plugins.
    ///
    /// ```swift
    /// for await event in dispatcher.events() {
    ///     if case .completed(let request, let outcome) = event { print(request.actionName, outcome) }
    /// }
    /// ```
    public func events(
        bufferingPolicy policy: AsyncStream<ActionDispatchEvent>.Continuation.BufferingPolicy = .bufferingNewest(1_000)
    ) -> AsyncStream<ActionDispatchEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: ActionDispatchEvent.self, bufferingPolicy: policy)
        let hub = eventHub
        let number = hub.addStream(continuation)
        continuation.onTermination = { [weak hub] _ in hub?.removeStream(number) }
        return stream
    }
}

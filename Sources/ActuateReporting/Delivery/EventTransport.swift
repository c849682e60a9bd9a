/// Sends a batch of events to a collector and reports what came back.
///
/// ``HTTPEventTransport`` is the real implementation; tests may supply their own. A transport never throws:
/// every outcome, including a connection failure, is a ``TransportResponse`` that ``EventUploader`` classifies.
public protocol EventTransport: Sendable {
    /// Sends one batch.
    /// - Parameter batch: The events to send.
    /// - Returns: The collector's HTTP response, or why none arrived.
    func send(_ batch: EventBatch) async -> TransportResponse

    /// The wire format the transport sends, which ``EventUploader`` uses to cut batches at exactly
    /// `EventUploader.Configuration.maxBatchBytes`; ``EventBatchEncoding/actuate`` unless a transport says
    /// otherwise.
    var encoding: EventBatchEncoding { get }
}

extension EventTransport {
    /// Actuate's own encoding.
    public var encoding: EventBatchEncoding { .actuate }
}

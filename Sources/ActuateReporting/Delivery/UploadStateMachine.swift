import Foundation

/// The decisions of ``EventUploader``, kept apart from its I/O so they can be tested alone.
///
/// The machine holds the batch in flight and the batches waiting to be resent (the halves of a split batch),
/// the count of rejections of the current batch, and the count of consecutive failures that drives backoff.
/// It never touches the store or the network: the uploader asks it which batch to send, sends it, hands the
/// response to ``handle(_:now:random:)``, and carries out the returned ``Decision``.
///
/// <!-- readme: package-only -->
/// ```swift
/// var machine = UploadStateMachine(policy: UploadRetryPolicy())
/// machine.begin(fetchedEvents)
/// switch machine.handle(.http(HTTPResponse(statusCode: 500)), now: now, random: 0.5) {
/// case .retry(let delay, _): print("retry in", delay)   // 0.5 s
/// default: break
/// }
/// ```
package struct UploadStateMachine: Sendable {
    /// What the uploader must do after a response.
    package typealias Decision = UploadDecision

    /// The numbers behind the decisions.
    let policy: UploadRetryPolicy
    /// Batches to send before fetching more events; the first is the current batch.
    private var queue: [[ReportEvent]] = []
    /// How many times the collector has rejected the current batch.
    private(set) var rejectedTries = 0
    /// Failures since the last acknowledgement, which set the backoff delay.
    private(set) var consecutiveFailures = 0
    /// The configuration error the collector's last answers showed (a redirect), until a batch is acknowledged.
    private(set) var configurationError: String?

    /// Creates a machine with nothing in flight.
    /// - Parameter policy: The backoff and dead-letter policy.
    package init(policy: UploadRetryPolicy) {
        self.policy = policy
    }

    /// The batch to send next, or `nil` when the uploader should fetch a new batch from the store.
    package var currentBatch: [ReportEvent]? {
        queue.first
    }

    /// Makes freshly fetched events the current batch. An empty batch is ignored.
    /// - Parameter batch: Events fetched from the store, oldest first.
    package mutating func begin(_ batch: [ReportEvent]) {
        guard !batch.isEmpty else { return }
        queue.insert(batch, at: 0)
        rejectedTries = 0
    }

    /// Decides what to do after the current batch was sent.
    ///
    /// - Parameters:
    ///   - response: What the transport returned for ``currentBatch``.
    ///   - now: The current time, to read a `Retry-After` date.
    ///   - random: A number in `0..<1` for the backoff jitter.
    /// - Returns: The decision. With no current batch it is an empty ``Decision/acknowledge(_:)``.
    package mutating func handle(_ response: TransportResponse, now: Date, random: Double) -> Decision {
        guard let batch = queue.first else { return .acknowledge([]) }
        switch ResponseClassifier.classify(response, now: now) {
        case .acknowledged:
            finishCurrent()
            consecutiveFailures = 0
            configurationError = nil
            return .acknowledge(Set(batch.map(\.id)))
        case .retryable(let reason):
            consecutiveFailures += 1
            return .retry(after: policy.backoffDelay(forAttempt: consecutiveFailures, random: random), reason: reason)
        case .throttled(let retryAfter, let reason):
            consecutiveFailures += 1
            let delay = policy.pauseDelay(retryAfter: retryAfter, attempt: consecutiveFailures, random: random)
            return .pause(for: delay, reason: reason)
        case .tooLarge(let reason):
            guard batch.count > 1 else {
                finishCurrent()
                return .deadLetter(Set(batch.map(\.id)), reason: "\(reason): a single event is too large to send")
            }
            let middle = batch.count / 2
            queue.replaceSubrange(0..<1, with: [Array(batch[..<middle]), Array(batch[middle...])])
            rejectedTries = 0
            // A split is a failure like any other: back off before sending the first half, so a collector that
            // answers 413 to everything is not sent every half at once.
            consecutiveFailures += 1
            return .split(after: policy.backoffDelay(forAttempt: consecutiveFailures, random: random))
        case .misconfigured(let reason):
            consecutiveFailures += 1
            configurationError = reason
            return .pause(for: policy.backoffDelay(forAttempt: consecutiveFailures, random: random), reason: reason)
        case .rejected(let reason):
            rejectedTries += 1
            if rejectedTries >= policy.maxRejectedTries {
                let tries = rejectedTries
                finishCurrent()
                return .deadLetter(
                    Set(batch.map(\.id)),
                    reason: "\(reason) after \(tries) \(tries == 1 ? "try" : "tries")"
                )
            }
            return .retry(after: policy.backoffDelay(forAttempt: rejectedTries, random: random), reason: reason)
        }
    }

    /// Records that the store failed while fetching, removing or dead-lettering, and returns the backoff
    /// before the uploader tries again.
    /// - Parameter random: A number in `0..<1` for the backoff jitter.
    /// - Returns: The delay before the next flush.
    mutating func storeFailed(random: Double) -> Duration {
        consecutiveFailures += 1
        return policy.backoffDelay(forAttempt: consecutiveFailures, random: random)
    }

    private mutating func finishCurrent() {
        queue.removeFirst()
        rejectedTries = 0
    }
}

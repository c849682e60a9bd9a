import Foundation

/// How ``EventUploader`` must treat a ``TransportResponse``.
package enum ResponseClass: Sendable, Hashable {
    /// The collector stored the batch (2xx): remove it from the store.
    case acknowledged
    /// A temporary failure (a connection error, a timeout, 5xx, 408, 401, 403): send the same batch again after
    /// a backoff, without counting a try against the batch.
    case retryable(reason: String)
    /// The collector asks for less traffic (429, 503): pause the whole pipeline for `retryAfter`, or for a
    /// backoff when the header is absent or invalid.
    case throttled(retryAfter: Duration?, reason: String)
    /// The batch is too large (413) or cannot be encoded: split it, and give up on a single event.
    case tooLarge(reason: String)
    /// The collector's answer shows that the endpoint is misconfigured (a 3xx redirect, which the transport never
    /// follows): the events are not at fault, so pause delivery with backoff and report the problem.
    case misconfigured(reason: String)
    /// The collector refused the batch (any other status): count a try, and dead-letter the batch after the
    /// policy's number of tries.
    case rejected(reason: String)
}

/// Classifies transport responses; a pure function with no state.
package enum ResponseClassifier {
    /// What a redirect from the collector means.
    static let redirectExplanation =
        "the collector redirects, and redirects are never followed (the API key would travel with them); "
        + "this is a configuration error: set the endpoint to the final address. Delivery is paused and retried "
        + "with backoff; nothing is dead-lettered"

    /// Classifies one response.
    ///
    /// - `2xx` is acknowledged.
    /// - Connection failures, timeouts, `408`, and `5xx` except the ones below are retried with backoff.
    ///   `401` and `403` are retried too: a wrong or expired key is not the events' fault, so they are kept
    ///   rather than dead-lettered.
    /// - `429` and `503` pause the pipeline, honouring `Retry-After`.
    /// - `413` and unencodable batches are split.
    /// - `3xx` (a redirect the transport refused to follow) is a configuration error: delivery pauses.
    /// - `501` and `505`, which no retry can fix, and every other status are rejections.
    ///
    /// - Parameters:
    ///   - response: What the transport returned.
    ///   - now: The current time, to read a `Retry-After` date.
    /// - Returns: The class of the response.
    package static func classify(_ response: TransportResponse, now: Date) -> ResponseClass {
        switch response {
        case .failed(let failure):
            if failure.kind == .encodingFailed {
                return .tooLarge(reason: "the batch could not be encoded: \(failure.message)")
            }
            return .retryable(reason: failure.description)
        case .http(let http):
            let status = http.statusCode
            let reason = "HTTP \(status)"
            switch status {
            case 200..<300:
                return .acknowledged
            case 429, 503:
                let retryAfter = http.value(forHeader: "Retry-After").flatMap { RetryAfter.delay(from: $0, now: now) }
                return .throttled(retryAfter: retryAfter, reason: reason)
            case 413:
                return .tooLarge(reason: reason)
            case 300..<400:
                return .misconfigured(reason: "\(reason): \(redirectExplanation)")
            case 501, 505:
                return .rejected(reason: reason)
            case 401, 403, 408, 500..<600:
                return .retryable(reason: reason)
            default:
                return .rejected(reason: reason)
            }
        }
    }
}

import ActuateReporting

/// Why an HTTP source got no usable answer, as ``HTTPSourceClient`` finds it: the one place where an endpoint,
/// credentials, a transport failure, a status (read once, by ``HTTPSourceStatus``) and a body cut short become a
/// reason. Each source turns it into its own error (`DecisionSourceError`, `CampaignSourceError`,
/// ``ContentBlockError``) case for case, without reading a status again.
package enum HTTPSourceFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The endpoint is not allowed: not `https`, and not `http` to a loopback host. The reason names the endpoint
    /// without its user name and password.
    case invalidEndpoint(reason: String)
    /// The API key is empty, blank or not printable ASCII.
    case invalidAPIKey(reason: String)
    /// A header cannot be sent: not a token, a value that is not printable ASCII, or one the source sets itself.
    case invalidHeader(reason: String)
    /// The request could not be encoded.
    case requestNotEncoded(reason: String)
    /// The request body is larger than the source sends, or the server answered 413.
    case requestTooLarge(bytes: Int, limit: Int)
    /// No whole response arrived: the server could not be reached, the connection broke, a deadline passed, or the
    /// answer was larger than the source reads.
    case requestFailed(message: String)
    /// The server answered with a redirect (3xx), which is never followed.
    case redirected(status: Int)
    /// The server refused the credentials (401 or 403).
    case unauthorized(status: Int)
    /// The server failed (5xx).
    case serverError(status: Int)
    /// The server answered with another status that is not a success.
    case unexpectedStatus(Int)
    /// The body is shorter than its declared `Content-Length`.
    case truncated(received: Int, declared: Int)

    /// The failure in words, never with a key or a header's value.
    package var description: String {
        switch self {
        case .invalidEndpoint(let reason): "the endpoint is not allowed: \(reason)"
        case .invalidAPIKey(let reason): "the API key is not valid: \(reason)"
        case .invalidHeader(let reason): reason
        case .requestNotEncoded(let reason): "the request could not be encoded: \(reason)"
        case .requestTooLarge(let bytes, let limit): "the request is \(bytes) bytes, more than the limit of \(limit)"
        case .requestFailed(let message): message
        case .redirected(let status), .unauthorized(let status), .serverError(let status),
            .unexpectedStatus(let status):
            HTTPSourceStatus(statusCode: status).description
        case .truncated(let received, let declared):
            "the body is cut short: \(received) of \(declared) bytes arrived"
        }
    }
}

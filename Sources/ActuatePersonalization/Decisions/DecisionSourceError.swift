/// Why an ``HTTPDecisionSource`` could not decide. The tracker keeps its cache and its pending commands.
package enum DecisionSourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The endpoint is not allowed: not `https`, and not `http` to a loopback host.
    case invalidEndpoint(reason: String)
    /// The API key is empty or contains characters that cannot go in a header.
    case invalidAPIKey(reason: String)
    /// The request body is larger than the source sends.
    case requestTooLarge(bytes: Int, limit: Int)
    /// The server could not be reached, or the connection broke before a whole response arrived.
    case connectionFailed(message: String)
    /// The server refused the API key (401 or 403).
    case unauthorized(status: Int)
    /// The server failed (5xx).
    case serverError(status: Int)
    /// The server answered with another status that is not a success.
    case unexpectedStatus(Int)
    /// The response is not the JSON a decision looks like: cut short, not JSON, or of the wrong shape.
    case malformedResponse(reason: String)

    /// A sentence describing the problem; it never contains the API key.
    package var description: String {
        switch self {
        case .invalidEndpoint(let reason): "The decision endpoint is not allowed: \(reason)"
        case .invalidAPIKey(let reason): "The API key is not valid: \(reason)"
        case .requestTooLarge(let bytes, let limit): "The request is \(bytes) bytes, more than the limit of \(limit)"
        case .connectionFailed(let message): "The connection to the decision server failed: \(message)"
        case .unauthorized(let status): "The decision server refused the API key (HTTP \(status))"
        case .serverError(let status): "The decision server failed (HTTP \(status))"
        case .unexpectedStatus(let status): "The decision server answered HTTP \(status)"
        case .malformedResponse(let reason): "The decision server's response is malformed: \(reason)"
        }
    }
}

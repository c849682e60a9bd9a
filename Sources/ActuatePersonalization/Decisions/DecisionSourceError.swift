/// Why an ``HTTPDecisionSource`` could not decide. The tracker keeps its cache and its pending commands.
package enum DecisionSourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The endpoint is not allowed: not `https`, and not `http` to a loopback host.
    case invalidEndpoint(reason: String)
    /// The API key is empty or contains characters that cannot go in a header.
    case invalidAPIKey(reason: String)
    /// A header cannot be sent: its name is not an HTTP token, its value is not printable ASCII, or the source
    /// sets it itself. The reason names the header, never its value.
    case invalidHeader(reason: String)
    /// The request body is larger than the source sends.
    case requestTooLarge(bytes: Int, limit: Int)
    /// The server could not be reached, or the connection broke before a whole response arrived.
    case connectionFailed(message: String)
    /// The server answered with a redirect, which is never followed.
    case redirected(status: Int)
    /// The server refused the API key (401 or 403).
    case unauthorized(status: Int)
    /// The server failed (5xx).
    case serverError(status: Int)
    /// The server answered with another status that is not a success.
    case unexpectedStatus(Int)
    /// The response's body is cut short (fewer bytes than its `Content-Length`), or the request could not be
    /// encoded.
    case malformedResponse(reason: String)
    /// The response is not a decision: not JSON, or a document the rules reader refuses, with every problem at
    /// its JSON path, in the words a rules file's problems use (`$.actions[0].contentType: missing; expected a
    /// string`).
    case invalidResponse(RulesFileError)

    /// A sentence describing the problem; it never contains the API key.
    package var description: String {
        switch self {
        case .invalidEndpoint(let reason): "The decision endpoint is not allowed: \(reason)"
        case .invalidAPIKey(let reason): "The API key is not valid: \(reason)"
        case .invalidHeader(let reason): "A header is not valid: \(reason)"
        case .requestTooLarge(let bytes, let limit): "The request is \(bytes) bytes, more than the limit of \(limit)"
        case .connectionFailed(let message): "The connection to the decision server failed: \(message)"
        case .redirected(let status):
            "The decision server answered with a redirect (HTTP \(status)); it is not followed"
        case .unauthorized(let status): "The decision server refused the API key (HTTP \(status))"
        case .serverError(let status): "The decision server failed (HTTP \(status))"
        case .unexpectedStatus(let status): "The decision server answered HTTP \(status)"
        case .malformedResponse(let reason): "The decision server's response is malformed: \(reason)"
        case .invalidResponse(let error):
            "The decision server's response is invalid: "
                + error.problems.map(\.description).joined(separator: " | ")
        }
    }
}

extension DecisionSourceError {
    /// The error for what the HTTP core found, case for case.
    /// - Parameter failure: Why the source got no usable answer.
    init(_ failure: HTTPSourceFailure) {
        switch failure {
        case .invalidEndpoint(let reason): self = .invalidEndpoint(reason: reason)
        case .invalidAPIKey(let reason): self = .invalidAPIKey(reason: reason)
        case .invalidHeader(let reason): self = .invalidHeader(reason: reason)
        case .requestNotEncoded: self = .malformedResponse(reason: failure.description)
        case .requestTooLarge(let bytes, let limit): self = .requestTooLarge(bytes: bytes, limit: limit)
        case .requestFailed(let message): self = .connectionFailed(message: message)
        case .redirected(let status): self = .redirected(status: status)
        case .unauthorized(let status): self = .unauthorized(status: status)
        case .serverError(let status): self = .serverError(status: status)
        case .unexpectedStatus(let status): self = .unexpectedStatus(status)
        case .truncated: self = .malformedResponse(reason: failure.description)
        }
    }
}

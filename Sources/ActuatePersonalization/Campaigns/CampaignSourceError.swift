/// Why an ``HTTPCampaignSource`` could not answer a request. The request earns nothing; the error is recorded as a
/// `CampaignEventType.campaignSourceError` event and later requests are still made.
package enum CampaignSourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The endpoint is not allowed: not `https`, and not `http` to a loopback host.
    case invalidEndpoint(reason: String)
    /// The API key is empty or contains characters that cannot go in a header.
    case invalidAPIKey(reason: String)
    /// A header cannot be sent: its name is not an HTTP token, its value is not printable ASCII, or the source
    /// sets it itself. The reason names the header, never its value.
    case invalidHeader(reason: String)
    /// The request body is larger than the source sends.
    case requestTooLarge(bytes: Int, limit: Int)
    /// No whole response arrived: the server could not be reached, the connection broke, a deadline passed, or
    /// the response was larger than the source reads.
    case requestFailed(message: String)
    /// The server answered with a redirect, which is never followed.
    case redirected(status: Int)
    /// The server refused the API key (401 or 403).
    case unauthorized(status: Int)
    /// The server failed (5xx).
    case serverError(status: Int)
    /// The server answered with another status that is not a success.
    case unexpectedStatus(Int)
    /// The response is not the JSON the wire format describes: cut short, not JSON, of the wrong shape, or with a
    /// number out of range. The reason names every problem with its JSON path.
    case malformedResponse(reason: String)

    /// A sentence describing the problem; it never contains the API key.
    package var description: String {
        switch self {
        case .invalidEndpoint(let reason): "The campaign endpoint is not allowed: \(reason)"
        case .invalidAPIKey(let reason): "The API key is not valid: \(reason)"
        case .invalidHeader(let reason): "A header is not valid: \(reason)"
        case .requestTooLarge(let bytes, let limit): "The request is \(bytes) bytes, more than the limit of \(limit)"
        case .requestFailed(let message): "The request to the campaign server failed: \(message)"
        case .redirected(let status):
            "The campaign server answered with a redirect (HTTP \(status)); it is not followed"
        case .unauthorized(let status): "The campaign server refused the API key (HTTP \(status))"
        case .serverError(let status): "The campaign server failed (HTTP \(status))"
        case .unexpectedStatus(let status): "The campaign server answered HTTP \(status)"
        case .malformedResponse(let reason): "The campaign server's response is malformed: \(reason)"
        }
    }
}

extension CampaignSourceError {
    /// The error for what the HTTP core found, case for case.
    /// - Parameter failure: Why the source got no usable answer.
    init(_ failure: HTTPSourceFailure) {
        switch failure {
        case .invalidEndpoint(let reason): self = .invalidEndpoint(reason: reason)
        case .invalidAPIKey(let reason): self = .invalidAPIKey(reason: reason)
        case .invalidHeader(let reason): self = .invalidHeader(reason: reason)
        case .requestNotEncoded, .requestFailed: self = .requestFailed(message: failure.description)
        case .requestTooLarge(let bytes, let limit): self = .requestTooLarge(bytes: bytes, limit: limit)
        case .redirected(let status): self = .redirected(status: status)
        case .unauthorized(let status): self = .unauthorized(status: status)
        case .serverError(let status): self = .serverError(status: status)
        case .unexpectedStatus(let status): self = .unexpectedStatus(status)
        case .truncated: self = .malformedResponse(reason: failure.description)
        }
    }
}

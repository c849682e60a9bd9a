import Foundation

/// What came back from one attempt to send an ``EventBatch``: an HTTP response, or a failure to get one.
public enum TransportResponse: Sendable, Hashable {
    /// The collector answered with an HTTP response, whatever its status.
    case http(HTTPResponse)
    /// No HTTP response arrived: the connection failed, dropped or timed out, or the request could not be built.
    case failed(TransportFailure)
}

/// An HTTP response from the collector.
public struct HTTPResponse: Sendable, Hashable {
    /// The HTTP status code.
    package var statusCode: Int
    /// The response headers as received.
    package var headers: [String: String]
    /// The response body.
    package var body: Data

    /// Creates a response.
    /// - Parameters:
    ///   - statusCode: The HTTP status code.
    ///   - headers: The response headers.
    ///   - body: The response body.
    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// The value of a header, matching its name without regard to case.
    /// - Parameter name: The header name, for example `Retry-After`.
    /// - Returns: The value, or `nil` when the header is absent.
    package func value(forHeader name: String) -> String? {
        if let exact = headers[name] { return exact }
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }
}

/// Why no HTTP response arrived for a batch.
public struct TransportFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The broad kind of failure, which decides how the uploader reacts.
    public enum Kind: String, Sendable, Hashable {
        /// The request took longer than the transport's timeout.
        case timedOut
        /// The connection closed before a full response arrived.
        case connectionLost
        /// The collector could not be reached.
        case cannotConnect
        /// The batch could not be turned into a request body; resending the same events cannot help.
        case encodingFailed
        /// Any other failure.
        case other
    }

    /// The kind of failure.
    public var kind: Kind
    /// A human-readable explanation. It never contains credentials.
    public var message: String

    /// Creates a failure.
    /// - Parameters:
    ///   - kind: The kind of failure.
    ///   - message: A human-readable explanation, without credentials.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String {
        "\(kind.rawValue): \(message)"
    }
}

import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ``EventTransport`` that posts each batch as JSON to a collector over HTTPS.
///
/// The body is ``EventBatch/encoded(as:)`` in the transport's ``encoding``: Actuate's own batch by default, or a
/// Segment HTTP Tracking API batch. The API key, when given, goes in the `Authorization` header and nowhere else
/// (`Bearer <key>` for Actuate's encoding, HTTP Basic with the key as user name for Segment's): no description,
/// log line or error mentions it. Plain `http` is refused except for loopback hosts, so that a test collector on
/// `127.0.0.1` works and a production key never travels in clear.
///
/// A request that gets no response within its `timeout:` (30 seconds by default), or that is still not complete after
/// twice that (a server trickling bytes), ends as a ``TransportFailure/Kind/timedOut`` failure. A connection that the collector closes without answering ends at
/// once as ``TransportFailure/Kind/connectionLost``, which the uploader retries on its backoff schedule. Requests
/// reuse the transport's keep-alive connections; on Linux, where FoundationNetworking's libcurl would resend a
/// request whose reused connection closed without its body (a resend that hangs until the timeout), that resend is
/// cancelled at once and the request ends as ``TransportFailure/Kind/connectionLost`` too.
/// Redirects are not followed (the key would go with them): a 3xx response is returned as it is. A response body
/// larger than `maximumResponseBytes` (1 MiB) is refused without being read whole. These rules are the package's one
/// outgoing-request policy, which decisions, content blocks and their assets obey too.
///
/// ```swift
/// let transport = try HTTPEventTransport(
///     endpoint: URL(string: "https://collector.example.com/v1/batch")!,
///     apiKey: "…",
///     timeout: .seconds(30)
/// )
/// ```
public final class HTTPEventTransport: EventTransport, CustomStringConvertible, CustomReflectable {
    /// The default for the `timeout:` parameter: 30 seconds.
    @usableFromInline package static let defaultTimeout: Duration = .seconds(30)

    /// Where batches are posted.
    let endpoint: URL
    /// How long one request may take before it counts as a timed-out connection failure.
    let timeout: Duration
    /// The wire format of the request bodies.
    public let encoding: EventBatchEncoding

    /// The largest collector response read, in bytes (1 MiB).
    static let maximumResponseBytes = 1_048_576

    private let authorization: String?
    private let client: OutgoingHTTPClient

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - endpoint: The collector URL, `https`, or `http` on a loopback host. For ``EventBatchEncoding/segment``
    ///     this is the batch endpoint, for example `https://api.segment.io/v1/batch`.
    ///   - apiKey: The key, or `nil` (the default) for none: sent as `Authorization: Bearer <key>` with Actuate's
    ///     encoding, and as the HTTP Basic user name (the Segment write key) with an empty password with Segment's.
    ///   - encoding: The wire format (``EventBatchEncoding/actuate`` by default).
    ///   - timeout: How long one request may take (30 seconds by default; at least 1 ms).
    ///   - configuration: The session configuration to start from (`.ephemeral` by default); the transport sets
    ///     its timeouts and turns off cookies and caching.
    /// - Throws: An error saying what to fix when the endpoint is not allowed (plain `http` to a host that is not
    ///   loopback, another scheme, no host), or the key is empty, blank or contains characters that cannot go in an
    ///   HTTP header.
    public init(
        endpoint: URL,
        apiKey: String? = nil,
        encoding: EventBatchEncoding = .actuate,
        timeout: Duration = HTTPEventTransport.defaultTimeout,
        configuration: URLSessionConfiguration = .ephemeral
    ) throws {
        try Self.check(endpoint: endpoint, apiKey: apiKey)
        self.endpoint = endpoint
        self.encoding = encoding
        self.timeout = max(timeout, .milliseconds(1))
        self.authorization = apiKey.map { key in
            switch encoding {
            case .actuate: "Bearer \(key)"
            case .segment: "Basic " + Data("\(key):".utf8).base64EncodedString()
            }
        }
        let policy = OutgoingRequestPolicy(
            timeout: self.timeout,
            deadline: self.timeout * 2,
            maximumResponseBytes: Self.maximumResponseBytes,
            followsRedirects: false
        )
        // The client works on a copy: the caller's configuration object stays as it was.
        self.client = OutgoingHTTPClient(policy: policy, configuration: configuration)
    }

    /// Checks that `endpoint` may receive events and that `apiKey` can go in an HTTP header.
    /// - Throws: ``HTTPEventTransportError`` naming the problem.
    private static func check(endpoint: URL, apiKey: String?) throws(HTTPEventTransportError) {
        switch OutgoingRequestPolicy.problem(with: endpoint) {
        case nil: break
        case .missingHost: throw .missingHost(OutgoingRequestPolicy.redacted(endpoint))
        case .unsupportedScheme: throw .unsupportedScheme(OutgoingRequestPolicy.redacted(endpoint))
        case .insecure: throw .insecureEndpoint(OutgoingRequestPolicy.redacted(endpoint))
        }
        if let apiKey, let problem = OutgoingRequestPolicy.apiKeyProblem(apiKey) {
            throw .invalidAPIKey(reason: problem)
        }
    }

    /// A description naming the endpoint and whether a key is set, never the key itself.
    public var description: String {
        "HTTPEventTransport(endpoint: \(OutgoingRequestPolicy.redacted(endpoint)), "
            + "apiKey: \(authorization == nil ? "none" : "set"), timeout: \(timeout))"
    }

    /// A mirror that shows what ``description`` shows, so `dump` and debuggers never reveal the key.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "endpoint": OutgoingRequestPolicy.redacted(endpoint),
                "apiKey": authorization == nil ? "none" : "set",
                "encoding": encoding,
                "timeout": timeout,
            ],
            displayStyle: .class
        )
    }

    /// Posts one batch.
    /// - Parameter batch: The events to send.
    /// - Returns: The collector's response, or the failure that prevented one.
    public func send(_ batch: EventBatch) async -> TransportResponse {
        var request = URLRequest(url: endpoint, timeoutInterval: timeout.timeInterval)
        request.httpMethod = "POST"
        request.httpBody = batch.encoded(as: encoding)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let authorization {
            request.setValue(authorization, forHTTPHeaderField: "Authorization")
        }
        return await client.send(request)
    }
}

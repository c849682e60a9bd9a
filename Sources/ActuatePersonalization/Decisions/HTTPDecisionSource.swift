import ActuateReporting
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Asks a decision server: posts the visitor and the behaviour commands not yet sent, and reads back the
/// conditions and actions.
///
/// ```swift
/// let source = try HTTPDecisionSource(
///     endpoint: URL(string: "https://decisions.example.com/v1/decide")!,
///     apiKey: "…"
/// )
/// let tracker = Tracker(source: source, reporter: reporter, directory: trackerDirectory)
/// ```
///
/// Every failure is a `DecisionSourceError` with the reason: an unreachable server, a status that is not a
/// success, a body cut short or of the wrong shape. The tracker then keeps its last good result and its
/// pending commands, which go out with the next request. The API key travels in an
/// `Authorization: Bearer …` header and nowhere else. The source obeys the package's one outgoing-request
/// policy, as `HTTPEventTransport` (ActuateReporting) does: plain `http` is refused except to loopback hosts (a literal
/// 127.0.0.0/8 address, `::1` or `localhost`), a redirect is never followed (its 3xx status is an error, so the
/// key never reaches the server it points to), and a response is read only up to `maximumResponseBytes`.
public final class HTTPDecisionSource: DecisionSource, CustomStringConvertible {
    /// Where requests are posted.
    let endpoint: URL
    /// How long one request may wait for the server's next bytes; the whole request may take twice that.
    let timeout: Duration
    /// The largest request body sent, in bytes.
    let maximumRequestBytes: Int
    /// The largest response body read, in bytes.
    let maximumResponseBytes: Int

    private let authorization: String?
    private let client: OutgoingHTTPClient

    /// Answers cover the commands sent with them; the tracker merges them into its cache.
    public var isIncremental: Bool { true }

    /// Creates a source.
    /// - Parameters:
    ///   - endpoint: The decision URL, `https`, or `http` on a loopback host.
    ///   - apiKey: The key sent as `Authorization: Bearer <key>`, or nil for none.
    ///   - timeout: How long one request may take (15 seconds by default).
    ///   - maximumRequestBytes: The largest request body sent (512 KB by default).
    ///   - maximumResponseBytes: The largest response body read (4 MB by default).
    /// - Throws: `DecisionSourceError.invalidEndpoint(reason:)` or `DecisionSourceError.invalidAPIKey(reason:)`.
    public init(
        endpoint: URL,
        apiKey: String? = nil,
        timeout: Duration = .seconds(15),
        maximumRequestBytes: Int = 512 * 1_024,
        maximumResponseBytes: Int = 4 * 1_024 * 1_024
    ) throws {
        try Self.validate(endpoint)
        if let apiKey, let problem = OutgoingRequestPolicy.apiKeyProblem(apiKey) {
            throw DecisionSourceError.invalidAPIKey(reason: problem)
        }
        self.endpoint = endpoint
        self.timeout = max(timeout, .milliseconds(1))
        self.maximumRequestBytes = maximumRequestBytes
        self.maximumResponseBytes = maximumResponseBytes
        self.authorization = apiKey.map { "Bearer \($0)" }
        self.client = OutgoingHTTPClient(
            policy: OutgoingRequestPolicy(
                timeout: self.timeout,
                deadline: self.timeout * 2,
                maximumResponseBytes: maximumResponseBytes,
                followsRedirects: false
            )
        )
    }

    /// The endpoint and whether a key is set, never the key.
    public var description: String {
        "HTTPDecisionSource(endpoint: \(OutgoingRequestPolicy.redacted(endpoint)), apiKey: \(authorization == nil ? "none" : "set"))"
    }

    /// Posts the request and reads the decision.
    /// - Parameter request: The visitor and the commands not yet sent.
    /// - Returns: The conditions and actions the server decided on.
    /// - Throws: `DecisionSourceError` saying what went wrong.
    public func decide(_ request: DecisionRequest) async throws -> TrackerResult {
        let body: Data
        do {
            body = try DecisionWireFormat.encode(request)
        } catch {
            throw DecisionSourceError.malformedResponse(reason: "the request could not be encoded: \(error)")
        }
        guard body.count <= maximumRequestBytes else {
            throw DecisionSourceError.requestTooLarge(bytes: body.count, limit: maximumRequestBytes)
        }
        let urlRequest = URLRequest.jsonPost(to: endpoint, body: body, timeout: timeout, authorization: authorization)
        let http: HTTPResponse
        switch await client.send(urlRequest) {
        case .http(let response):
            http = response
        case .failed(let failure):
            throw DecisionSourceError.connectionFailed(message: failure.message)
        }
        let data = http.body
        switch HTTPSourceStatus(statusCode: http.statusCode) {
        case .success: break
        case .unauthorized(let status): throw DecisionSourceError.unauthorized(status: status)
        case .requestTooLarge: throw DecisionSourceError.requestTooLarge(bytes: body.count, limit: maximumRequestBytes)
        case .serverError(let status): throw DecisionSourceError.serverError(status: status)
        case .redirected(let status), .unexpected(let status): throw DecisionSourceError.unexpectedStatus(status)
        }
        if let declared = http.value(forHeader: "Content-Length").flatMap(Int.init), declared != data.count {
            throw DecisionSourceError.malformedResponse(
                reason: "the body is cut short: \(data.count) of \(declared) bytes arrived"
            )
        }
        return try DecisionWireFormat.decode(data)
    }

    private static func validate(_ endpoint: URL) throws(DecisionSourceError) {
        if let problem = OutgoingRequestPolicy.problem(with: endpoint) {
            throw .invalidEndpoint(reason: "\(OutgoingRequestPolicy.redacted(endpoint)): \(problem.reason)")
        }
    }
}

import ActuateReporting
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Asks a campaign server: posts each tracked event (an action, an item view, a cart change, a purchase, a
/// review, a share, a comment or a favourite) with the user and the context, and reads back the campaigns it
/// earns, each with the server's test or control assignment for that user.
///
/// ```swift
/// let source = try HTTPCampaignSource(
///     endpoint: URL(string: "https://campaigns.example.com/v1/campaigns")!,
///     apiKey: "…"
/// )
/// let campaigns = CampaignManager(reporter: reporter, source: source, directory: campaignsDirectory)
/// ```
///
/// The article <doc:ServingCampaigns> documents every field of the request and the response, so that a team can
/// serve campaigns from its own stack. Every failure is a `CampaignSourceError` with the reason: an unreachable
/// server, a status that is not a success, a body cut short, of the wrong shape or with a number out of range.
/// The manager records it as a `CampaignEventType.campaignSourceError` event, and the request earns nothing.
///
/// The API key travels in an `Authorization: Bearer …` header and nowhere else. The source obeys the package's one
/// outgoing-request policy, as `HTTPEventTransport` (ActuateReporting) does: plain `http` is refused except to
/// loopback hosts (a literal 127.0.0.0/8 address, `::1` or `localhost`), a redirect is never followed (its 3xx
/// status is `CampaignSourceError.redirected(status:)`, so the key never reaches the server it points to), a
/// response is read only up to `maximumResponseBytes`, `timeout` bounds each wait for data and
/// `deadline` the whole request.
public struct HTTPCampaignSource: CampaignSource, CustomStringConvertible {
    /// Where requests are posted.
    let endpoint: URL
    /// How long to wait for the next bytes of an answer.
    let timeout: Duration
    /// How long one request may take in all.
    let deadline: Duration
    /// The largest request body sent, in bytes.
    let maximumRequestBytes: Int
    /// The largest response body read, in bytes.
    let maximumResponseBytes: Int

    private let authorization: String?
    private let client: OutgoingHTTPClient

    /// Creates a source.
    /// - Parameters:
    ///   - endpoint: The campaign URL, `https`, or `http` on a loopback host.
    ///   - apiKey: The key sent as `Authorization: Bearer <key>`, or nil for none.
    ///   - timeout: How long to wait for the next bytes of an answer (15 seconds by default).
    ///   - deadline: How long one request may take in all (30 seconds by default).
    ///   - maximumRequestBytes: The largest request body sent (256 KB by default).
    ///   - maximumResponseBytes: The largest response body read (1 MB by default).
    /// - Throws: `CampaignSourceError.invalidEndpoint(reason:)` or `CampaignSourceError.invalidAPIKey(reason:)`.
    public init(
        endpoint: URL,
        apiKey: String? = nil,
        timeout: Duration = .seconds(15),
        deadline: Duration = .seconds(30),
        maximumRequestBytes: Int = 256 * 1_024,
        maximumResponseBytes: Int = 1_024 * 1_024
    ) throws {
        if let problem = OutgoingRequestPolicy.problem(with: endpoint) {
            throw CampaignSourceError.invalidEndpoint(
                reason: "\(OutgoingRequestPolicy.redacted(endpoint)): \(problem.reason)"
            )
        }
        if let apiKey, let problem = OutgoingRequestPolicy.apiKeyProblem(apiKey) {
            throw CampaignSourceError.invalidAPIKey(reason: problem)
        }
        let policy = OutgoingRequestPolicy(
            timeout: timeout,
            deadline: deadline,
            maximumResponseBytes: maximumResponseBytes,
            followsRedirects: false
        )
        self.endpoint = endpoint
        self.timeout = policy.timeout
        self.deadline = policy.deadline
        self.maximumRequestBytes = max(maximumRequestBytes, 1)
        self.maximumResponseBytes = policy.maximumResponseBytes
        self.authorization = apiKey.map { "Bearer \($0)" }
        self.client = OutgoingHTTPClient(policy: policy)
    }

    /// The endpoint and whether a key is set, never the key.
    public var description: String {
        "HTTPCampaignSource(endpoint: \(OutgoingRequestPolicy.redacted(endpoint)), apiKey: \(authorization == nil ? "none" : "set"))"
    }

    /// Posts the event and reads the campaigns it earns.
    /// - Parameter request: The event, its context, its user and its properties.
    /// - Returns: The campaigns, in the order the server gave them, each with the user's test or control
    ///   assignment.
    /// - Throws: `CampaignSourceError` saying what went wrong.
    public func campaigns(for request: CampaignRequest) async throws -> [Campaign] {
        let body: Data
        do {
            body = try CampaignWireFormat.encode(request)
        } catch {
            throw CampaignSourceError.requestFailed(message: "the request could not be encoded: \(error)")
        }
        guard body.count <= maximumRequestBytes else {
            throw CampaignSourceError.requestTooLarge(bytes: body.count, limit: maximumRequestBytes)
        }
        let urlRequest = URLRequest.jsonPost(to: endpoint, body: body, timeout: timeout, authorization: authorization)
        let http: HTTPResponse
        switch await client.send(urlRequest) {
        case .http(let response): http = response
        case .failed(let failure): throw CampaignSourceError.requestFailed(message: failure.message)
        }
        switch HTTPSourceStatus(statusCode: http.statusCode) {
        case .success: break
        case .redirected(let status): throw CampaignSourceError.redirected(status: status)
        case .unauthorized(let status): throw CampaignSourceError.unauthorized(status: status)
        case .requestTooLarge: throw CampaignSourceError.requestTooLarge(bytes: body.count, limit: maximumRequestBytes)
        case .serverError(let status): throw CampaignSourceError.serverError(status: status)
        case .unexpected(let status): throw CampaignSourceError.unexpectedStatus(status)
        }
        if let declared = http.value(forHeader: "Content-Length").flatMap(Int.init), declared != http.body.count {
            throw CampaignSourceError.malformedResponse(
                reason: "the body is cut short: \(http.body.count) of \(declared) bytes arrived"
            )
        }
        return try CampaignWireFormat.decode(http.body)
    }
}

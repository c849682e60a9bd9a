import ActuateReporting
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``ContentBlockSource`` that asks a server for the blocks of some placeholders, personalized for the user.
///
/// It posts `{"placeholderIds": [...], "anonymousId": "...", "userId": "..."}` as JSON and expects a 2xx answer
/// whose body has the rules file's shape, an object with a `contentBlocks` array, validated the same way.
/// A failed request, a non-2xx status and a malformed or truncated body are reported as a
/// ``ContentBlockError`` and never crash.
///
/// The source obeys the package's one outgoing-request policy, as `HTTPEventTransport` does: the endpoint is
/// `https`, or `http` to a loopback host only (a literal 127.0.0.0/8 address, `::1` or `localhost`); a redirect
/// is never followed (the request may carry an authorization in its headers, and a redirected POST would lose
/// its body), so a 3xx answer is a source failure; the answer is read up to `maximumResponseBytes` and no
/// further; `timeout` bounds each wait for data and `deadline` the whole request. Its `headers` are checked when
/// it is created: a name that is not an HTTP token or a value that is not printable ASCII is refused there, so
/// nothing the caller passes can add a header line of its own.
///
/// ```swift
/// let source = try HTTPContentBlockSource(endpoint: URL(string: "https://api.example.com/content-blocks")!)
/// ```
public struct HTTPContentBlockSource: ContentBlockSource {
    /// Where requests are posted.
    let endpoint: URL
    /// How long to wait for the next bytes of an answer.
    let timeout: Duration
    /// How long one request may take in all.
    let deadline: Duration
    /// The largest answer read, in bytes.
    let maximumResponseBytes: Int
    private let client: OutgoingHTTPClient
    private let headers: [String: String]

    /// Creates a source.
    /// - Parameters:
    ///   - endpoint: Where requests are posted: `https`, or `http` on a loopback host.
    ///   - headers: Extra request headers, such as an authorization. Each name must be an HTTP token (RFC 7230:
    ///     ASCII letters, digits and `!#$%&'*+-.^_|~` or the backtick) and each value printable ASCII, the rule API
    ///     keys follow, so no header can end early and start another (`"X-Key\r\nX-Injected: yes"`).
    ///   - timeout: How long to wait for the next bytes of an answer (30 seconds by default).
    ///   - deadline: How long one request may take in all (60 seconds by default).
    ///   - maximumResponseBytes: The largest answer read (4 MB by default).
    /// - Throws: ``ContentBlockError/sourceFailed(source:reason:)`` when the endpoint is not allowed, or when a
    ///   header's name or value cannot be sent as it is (the reason names the header, never its value).
    public init(
        endpoint: URL,
        headers: [String: String] = [:],
        timeout: Duration = .seconds(30),
        deadline: Duration = .seconds(60),
        maximumResponseBytes: Int = 4 * 1_024 * 1_024
    ) throws(ContentBlockError) {
        if let problem = OutgoingRequestPolicy.problem(with: endpoint) {
            throw .sourceFailed(source: OutgoingRequestPolicy.redacted(endpoint), reason: problem.reason)
        }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            // The name as a Swift literal, cut short: its CR or LF shows escaped, and it may be long.
            let shown = String(String(reflecting: name).prefix(120))
            if let problem = OutgoingRequestPolicy.headerNameProblem(name) {
                throw .sourceFailed(
                    source: OutgoingRequestPolicy.redacted(endpoint),
                    reason: "the header name \(shown) cannot be sent: \(problem)"
                )
            }
            if let problem = OutgoingRequestPolicy.headerValueProblem(value) {
                throw .sourceFailed(
                    source: OutgoingRequestPolicy.redacted(endpoint),
                    reason: "the value of the header \(shown) cannot be sent: \(problem)"
                )
            }
        }
        let policy = OutgoingRequestPolicy(
            timeout: timeout,
            deadline: deadline,
            maximumResponseBytes: maximumResponseBytes,
            followsRedirects: false
        )
        self.endpoint = endpoint
        self.headers = headers
        self.timeout = policy.timeout
        self.deadline = policy.deadline
        self.maximumResponseBytes = policy.maximumResponseBytes
        self.client = OutgoingHTTPClient(policy: policy)
    }

    /// Posts the placeholders and the user, and reads the blocks the server answers with.
    /// - Parameters:
    ///   - placeholderIDs: The placeholders to load blocks for.
    ///   - identity: Who the blocks are for.
    /// - Returns: The blocks of the answer, validated as a rules file's `contentBlocks` are.
    /// - Throws: ``ContentBlockError/sourceFailed(source:reason:)`` for a request that failed or a status that
    ///   is not a success, ``ContentBlockError/invalidRules(_:)`` for a body that is not valid blocks.
    public func loadBlocks(placeholderIDs: [String], identity: StoredIdentity) async throws -> [ContentBlock] {
        var body: [String: JSONValue] = [
            "placeholderIds": .array(placeholderIDs.map { .string($0) }),
            "anonymousId": .string(identity.anonymousID),
        ]
        if let userID = identity.userID { body["userId"] = .string(userID) }
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        do {
            request.httpBody = try JSONEncoder().encode(JSONValue.object(body))
        } catch {
            throw ContentBlockError.sourceFailed(source: source, reason: "\(error)")
        }
        return try Self.result(await client.send(request), source: source).get()
    }

    private var source: String { OutgoingRequestPolicy.redacted(endpoint) }

    static func result(_ response: TransportResponse, source: String) -> Result<[ContentBlock], ContentBlockError> {
        let http: HTTPResponse
        switch response {
        case .http(let answer): http = answer
        case .failed(let failure): return .failure(.sourceFailed(source: source, reason: failure.message))
        }
        let status = HTTPSourceStatus(statusCode: http.statusCode)
        guard status.isSuccess else { return .failure(.sourceFailed(source: source, reason: status.description)) }
        do throws(RulesFileError) {
            return .success(try ContentBlockRules(data: http.body, name: source).blocks)
        } catch {
            return .failure(.invalidRules(error))
        }
    }
}

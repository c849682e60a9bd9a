import ActuateReporting
import Foundation

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
/// success, a body cut short, or an answer the rules reader refuses (with the problems a rules file would get).
/// The tracker then keeps its last good result and its pending commands, which go out with the next request.
///
/// It is one of three HTTP sources of one shape (``HTTPCampaignSource``, ``HTTPContentBlockSource``): the same
/// `init(endpoint:apiKey:headers:limits:)`, the same credentials rule, and the package's one outgoing-request
/// policy, as `HTTPEventTransport` (ActuateReporting) obeys: plain `http` is refused except to loopback hosts (a
/// literal 127.0.0.0/8 address, `::1` or `localhost`), a redirect is never followed (its 3xx status is
/// `DecisionSourceError.redirected(status:)`, so the key never reaches the server it points to), and a response is
/// read only up to ``HTTPSourceLimits/maximumResponseBytes`` (``HTTPSourceLimits/decisions`` by default). The API
/// key travels in an `Authorization: Bearer …` header and nowhere else.
public struct HTTPDecisionSource: DecisionSource, CustomStringConvertible {
    /// The HTTP core every source of the module shares.
    let http: HTTPSourceClient

    /// Answers cover the commands sent with them; the tracker merges them into its cache.
    public var isIncremental: Bool { true }

    /// Creates a source.
    /// - Parameters:
    ///   - endpoint: The decision URL, `https`, or `http` on a loopback host.
    ///   - apiKey: The key sent as `Authorization: Bearer <key>`, or nil for none.
    ///   - headers: Extra request headers. Each name must be an HTTP token and each value printable ASCII, the rule
    ///     API keys follow, and none may be one the source sets itself (`Content-Type`, `Accept`,
    ///     `Content-Length`, or `Authorization` beside a key).
    ///   - limits: How long a request waits and how much it sends and reads (``HTTPSourceLimits/decisions``: 15 s
    ///     idle, 30 s in all, 512 KB out, 4 MB back).
    /// - Throws: `DecisionSourceError.invalidEndpoint(reason:)`, `.invalidAPIKey(reason:)` or
    ///   `.invalidHeader(reason:)`.
    public init(
        endpoint: URL,
        apiKey: String? = nil,
        headers: [String: String] = [:],
        limits: HTTPSourceLimits = .decisions
    ) throws {
        do throws(HTTPSourceFailure) {
            http = try HTTPSourceClient(endpoint: endpoint, apiKey: apiKey, headers: headers, limits: limits)
        } catch {
            throw DecisionSourceError(error)
        }
    }

    /// Where requests are posted.
    var endpoint: URL { http.endpoint }

    /// The endpoint, whether a key is set and the names of the headers; never a key or a value.
    public var description: String { http.description(of: "HTTPDecisionSource") }

    /// Posts the request and reads the decision.
    /// - Parameter request: The visitor and the commands not yet sent.
    /// - Returns: The conditions and actions the server decided on.
    /// - Throws: `DecisionSourceError` saying what went wrong.
    public func decide(_ request: DecisionRequest) async throws -> TrackerResult {
        let body: Data
        do throws(HTTPSourceFailure) {
            body = try await http.post { try DecisionWireFormat.encode(request) }
        } catch {
            throw DecisionSourceError(error)
        }
        return try DecisionWireFormat.decode(body)
    }
}

import ActuateReporting
import Foundation

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
/// It is one of three HTTP sources of one shape (``HTTPDecisionSource``, ``HTTPContentBlockSource``): the same
/// `init(endpoint:apiKey:headers:limits:)`, the same credentials rule, and the package's one outgoing-request
/// policy, as `HTTPEventTransport` (ActuateReporting) obeys: plain `http` is refused except to loopback hosts (a
/// literal 127.0.0.0/8 address, `::1` or `localhost`), a redirect is never followed (its 3xx status is
/// `CampaignSourceError.redirected(status:)`, so the key never reaches the server it points to), a response is
/// read only up to ``HTTPSourceLimits/maximumResponseBytes``, ``HTTPSourceLimits/timeout`` bounds each wait for
/// data and ``HTTPSourceLimits/deadline`` the whole request (``HTTPSourceLimits/campaigns`` by default). The API
/// key travels in an `Authorization: Bearer …` header and nowhere else.
public struct HTTPCampaignSource: CampaignSource, CustomStringConvertible {
    /// The HTTP core every source of the module shares.
    let http: HTTPSourceClient

    /// Creates a source.
    /// - Parameters:
    ///   - endpoint: The campaign URL, `https`, or `http` on a loopback host.
    ///   - apiKey: The key sent as `Authorization: Bearer <key>`, or nil for none.
    ///   - headers: Extra request headers. Each name must be an HTTP token and each value printable ASCII, the rule
    ///     API keys follow, and none may be one the source sets itself (`Content-Type`, `Accept`,
    ///     `Content-Length`, or `Authorization` beside a key).
    ///   - limits: How long a request waits and how much it sends and reads (``HTTPSourceLimits/campaigns``: 15 s
    ///     idle, 30 s in all, 256 KB out, 1 MB back).
    /// - Throws: `CampaignSourceError.invalidEndpoint(reason:)`, `.invalidAPIKey(reason:)` or
    ///   `.invalidHeader(reason:)`.
    public init(
        endpoint: URL,
        apiKey: String? = nil,
        headers: [String: String] = [:],
        limits: HTTPSourceLimits = .campaigns
    ) throws {
        do throws(HTTPSourceFailure) {
            http = try HTTPSourceClient(endpoint: endpoint, apiKey: apiKey, headers: headers, limits: limits)
        } catch {
            throw CampaignSourceError(error)
        }
    }

    /// The endpoint, whether a key is set and the names of the headers; never a key or a value.
    public var description: String { http.description(of: "HTTPCampaignSource") }

    /// Posts the event and reads the campaigns it earns.
    /// - Parameter request: The event, its context, its user and its properties.
    /// - Returns: The campaigns, in the order the server gave them, each with the user's test or control
    ///   assignment.
    /// - Throws: `CampaignSourceError` saying what went wrong.
    public func campaigns(for request: CampaignRequest) async throws -> [Campaign] {
        let body: Data
        do throws(HTTPSourceFailure) {
            body = try await http.post { try CampaignWireFormat.encode(request) }
        } catch {
            throw CampaignSourceError(error)
        }
        return try CampaignWireFormat.decode(body)
    }
}

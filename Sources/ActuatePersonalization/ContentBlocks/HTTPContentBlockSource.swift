import ActuateReporting
import Foundation

/// A ``ContentBlockSource`` that asks a server for the blocks of some placeholders, personalized for the user.
///
/// It posts `{"placeholderIds": [...], "anonymousId": "...", "userId": "..."}` as JSON and expects a 2xx answer
/// whose body has the rules file's shape, an object with a `contentBlocks` array, validated the same way.
/// A failed request, a non-2xx status and a malformed or truncated body are thrown as a ``ContentBlockError``
/// and never crash.
///
/// It is one of three HTTP sources of one shape (``HTTPDecisionSource``, ``HTTPCampaignSource``): the same
/// `init(endpoint:apiKey:headers:limits:)`, the same credentials rule, and the package's one outgoing-request
/// policy, as `HTTPEventTransport` obeys: the endpoint is `https`, or `http` to a loopback host only (a literal
/// 127.0.0.0/8 address, `::1` or `localhost`); a redirect is never followed (the request may carry credentials,
/// and a redirected POST would lose its body), so a 3xx answer is a source failure; the answer is read up to
/// ``HTTPSourceLimits/maximumResponseBytes`` and no further; ``HTTPSourceLimits/timeout`` bounds each wait for
/// data and ``HTTPSourceLimits/deadline`` the whole request (``HTTPSourceLimits/contentBlocks`` by default). Its
/// key and headers are checked when it is created: a header name that is not an HTTP token or a value that is
/// not printable ASCII is refused there, so nothing the caller passes can add a header line of its own.
///
/// ```swift
/// let source = try HTTPContentBlockSource(
///     endpoint: URL(string: "https://api.example.com/content-blocks")!,
///     headers: ["X-Api-Key": "…"]
/// )
/// ```
public struct HTTPContentBlockSource: ContentBlockSource, CustomStringConvertible {
    /// The HTTP core every source of the module shares.
    let http: HTTPSourceClient

    /// Creates a source.
    /// - Parameters:
    ///   - endpoint: Where requests are posted: `https`, or `http` on a loopback host.
    ///   - apiKey: The key sent as `Authorization: Bearer <key>`, or nil for none.
    ///   - headers: Extra request headers. Each name must be an HTTP token (RFC 7230: ASCII letters, digits and
    ///     `!#$%&'*+-.^_|~` or the backtick) and each value printable ASCII, the rule API keys follow, so no header
    ///     can end early and start another (`"X-Key\r\nX-Injected: yes"`); none may be one the source sets itself
    ///     (`Content-Type`, `Accept`, `Content-Length`, or `Authorization` beside a key).
    ///   - limits: How long a request waits and how much it sends and reads (``HTTPSourceLimits/contentBlocks``:
    ///     30 s idle, 60 s in all, 64 KB out, 4 MB back).
    /// - Throws: ``ContentBlockError/sourceFailed(source:reason:)`` when the endpoint is not allowed, or when the
    ///   key or a header cannot be sent as it is (the reason names the header, never its value).
    public init(
        endpoint: URL,
        apiKey: String? = nil,
        headers: [String: String] = [:],
        limits: HTTPSourceLimits = .contentBlocks
    ) throws(ContentBlockError) {
        do throws(HTTPSourceFailure) {
            http = try HTTPSourceClient(endpoint: endpoint, apiKey: apiKey, headers: headers, limits: limits)
        } catch {
            throw ContentBlockError(error, source: OutgoingRequestPolicy.redacted(endpoint))
        }
    }

    /// Where requests are posted.
    var endpoint: URL { http.endpoint }

    /// The endpoint, whether a key is set and the names of the headers; never a key or a value.
    public var description: String { http.description(of: "HTTPContentBlockSource") }

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
        let answer: Data
        do throws(HTTPSourceFailure) {
            answer = try await http.post { try JSONEncoder().encode(JSONValue.object(body)) }
        } catch {
            throw ContentBlockError(error, source: http.redactedEndpoint)
        }
        do throws(RulesFileError) {
            return try ContentBlockRules(data: answer, name: http.redactedEndpoint).blocks
        } catch {
            throw ContentBlockError.invalidRules(error)
        }
    }
}

extension ContentBlockError {
    /// The error for what the HTTP core found: a source failure with its reason.
    /// - Parameters:
    ///   - failure: Why the source got no usable answer.
    ///   - source: The endpoint, without a user name or password.
    init(_ failure: HTTPSourceFailure, source: String) {
        self = .sourceFailed(source: source, reason: failure.description)
    }
}

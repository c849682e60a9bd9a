import Foundation
import Testing

@testable import ActuateReporting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A credential set on the client's session configuration (not on the request) counts as one: a redirect is not
/// followed with it, so the key never reaches the redirect's target (issue 46.5).
@Suite("Outgoing requests: session headers are credentials")
struct OutgoingSessionHeaderRedirectTests {
    static func client(sessionHeaders: [String: String]?) -> OutgoingHTTPClient {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = sessionHeaders
        return OutgoingHTTPClient(
            policy: OutgoingRequestPolicy(
                timeout: .seconds(10),
                deadline: .seconds(20),
                maximumResponseBytes: 1 << 20,
                followsRedirects: true
            ),
            configuration: configuration
        )
    }

    /// The answer's status, or nil when the request failed.
    static func answerStatus(_ response: TransportResponse) -> Int? {
        if case .http(let answer) = response { return answer.statusCode }
        return nil
    }

    @Test(
        "a session Authorization header stops the redirect; without it the same client follows",
        arguments: [307, 302]
    )
    func sessionAuthorization(status: Int) async throws {
        try await ContentServer.with { target in
            try await RedirectServer.with(location: target.blocksURL) { redirect in
                let withKey = Self.client(sessionHeaders: ["Authorization": "Bearer sk_session"])
                let refused = await withKey.send(URLRequest(url: redirect.url("/redirect/\(status)")))
                #expect(Self.answerStatus(refused) == status)
                let askedWithKey = try await target.stats().requests["/v1/content-blocks"]
                #expect(askedWithKey == nil, "the target was asked")
                let authorizations = try await redirect.records().requests.map(\.authorization)
                #expect(authorizations == ["Bearer sk_session"])

                let withoutKey = Self.client(sessionHeaders: nil)
                let followed = await withoutKey.send(URLRequest(url: redirect.url("/redirect/\(status)")))
                #expect(Self.answerStatus(followed) != status)
                let askedWithoutKey = try await target.stats().requests["/v1/content-blocks"]
                #expect(askedWithoutKey == 1)
            }
        }
    }
}

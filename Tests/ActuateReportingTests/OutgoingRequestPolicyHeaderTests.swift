import Foundation
import Testing

@testable import ActuateReporting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The outgoing-request policy's header rules: what counts as credentials, the session's headers included, and
/// which header names and values may be sent at all.
@Suite("Outgoing request policy: headers")
struct OutgoingRequestPolicyHeaderTests {
    private static let request = URLRequest(url: URL(string: "https://collector.example.com/v1/batch")!)

    @Test(
        "a session header that carries a key makes the request carry credentials, as it would on the request",
        arguments: ["Authorization", "authorization", "Cookie", "X-Api-Key", "Proxy-Authorization"]
    )
    func sessionCredentials(name: String) {
        let sessionHeaders: [AnyHashable: Any] = [name: "secret", "Accept-Language": "en"]
        #expect(OutgoingRequestPolicy.carriesCredentials(Self.request, sessionHeaders: sessionHeaders))
        var own = Self.request
        own.setValue("secret", forHTTPHeaderField: name)
        #expect(OutgoingRequestPolicy.carriesCredentials(own, sessionHeaders: nil))
        #expect(OutgoingRequestPolicy.carriesCredentials(own))
    }

    @Test("a session with no headers, or only the package's plain ones, adds no credentials")
    func plainSession() {
        #expect(!OutgoingRequestPolicy.carriesCredentials(Self.request, sessionHeaders: nil))
        #expect(!OutgoingRequestPolicy.carriesCredentials(Self.request, sessionHeaders: [:]))
        let plain: [AnyHashable: Any] = ["Accept": "application/json", "User-Agent": "shop/1", "Accept-Language": "en"]
        #expect(!OutgoingRequestPolicy.carriesCredentials(Self.request, sessionHeaders: plain))
        // The session's configuration, as a client holds it.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = plain
        #expect(
            !OutgoingRequestPolicy.carriesCredentials(
                Self.request,
                sessionHeaders: configuration.httpAdditionalHeaders
            )
        )
        configuration.httpAdditionalHeaders = ["Authorization": "Bearer sk_live_1"]
        #expect(
            OutgoingRequestPolicy.carriesCredentials(Self.request, sessionHeaders: configuration.httpAdditionalHeaders)
        )
    }

    @Test("a user name in the URL is credentials whatever the session holds")
    func userInURL() throws {
        let request = URLRequest(url: try #require(URL(string: "https://user:pass@collector.example.com/")))
        #expect(OutgoingRequestPolicy.carriesCredentials(request, sessionHeaders: nil))
    }

    @Test(
        "header names are RFC 7230 tokens: nothing that could end the line or start another header",
        arguments: [
            ("X-Api-Key", true), ("Authorization", true), ("x_custom.v2", true), ("!#$%&'*+-.^_`|~09azAZ", true),
            ("", false), ("X-Test\r\nX-Injected: yes", false), ("X-Test\n", false), ("X-Test\r", false),
            ("X\u{0}Test", false), ("X Test", false), ("X-Test:", false), ("X-Tést", false), ("X\tTest", false),
            ("(X)", false), ("X\"Y", false), ("X/Y", false),
        ]
    )
    func headerNames(name: String, allowed: Bool) {
        let problem = OutgoingRequestPolicy.headerNameProblem(name)
        #expect((problem == nil) == allowed, "\(String(reflecting: name)): \(problem ?? "allowed")")
    }

    @Test(
        "header values are printable ASCII, as API keys are: no CR, LF, NUL, other control or non-ASCII character",
        arguments: [
            ("Bearer sk_live_1", true), ("", true), ("a b ~ !", true),
            ("1\r\nX-Injected: yes", false), ("1\n", false), ("1\r", false), ("a\u{0}b", false), ("a\tb", false),
            ("\u{7F}", false), ("clé", false), ("\u{2028}", false),
        ]
    )
    func headerValues(value: String, allowed: Bool) {
        let problem = OutgoingRequestPolicy.headerValueProblem(value)
        #expect((problem == nil) == allowed, "\(String(reflecting: value)): \(problem ?? "allowed")")
        if !allowed { #expect(problem == "it contains characters that are not printable ASCII") }
    }
}

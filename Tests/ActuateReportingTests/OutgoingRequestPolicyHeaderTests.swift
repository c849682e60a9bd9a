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

    @Test(
        "a header that would split the request line, set on the session or the request, is refused before sending",
        arguments: [("X-Trace", "1\r\nX-Injected: yes"), ("X-Trace\r\nX-Injected", "yes")]
    )
    func clientRefusesSplitHeaders(name: String, value: String) async {
        let policy = OutgoingRequestPolicy(
            timeout: .seconds(5),
            deadline: .seconds(5),
            maximumResponseBytes: 1024,
            followsRedirects: false
        )
        // Port 9 (discard) on loopback: nothing listens, so only a refusal before connecting names the header.
        let url = URL(string: "http://127.0.0.1:9/")!
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = [name: value]
        let sessionAnswer = await OutgoingHTTPClient(policy: policy, configuration: configuration)
            .send(URLRequest(url: url))
        var request = URLRequest(url: url)
        request.setValue(value, forHTTPHeaderField: name)
        var answers = [sessionAnswer]
        // FoundationNetworking's URLRequest drops a value with CR or LF itself; a name with them it keeps.
        if request.value(forHTTPHeaderField: name) != nil {
            answers.append(await OutgoingHTTPClient(policy: policy).send(request))
        }
        for answer in answers {
            guard case .failed(let failure) = answer else {
                Issue.record("expected a refusal, got \(answer)")
                continue
            }
            #expect(failure.kind == .other)
            #expect(failure.message.contains("cannot be sent"), "\(failure.message)")
            #expect(!failure.message.contains("\r") && !failure.message.contains("\n"))
        }
    }
}

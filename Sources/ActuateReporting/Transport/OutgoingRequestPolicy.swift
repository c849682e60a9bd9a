import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The rules every outgoing HTTP request of the package obeys: event uploads, decisions, content blocks and
/// content-block assets.
///
/// - The URL is `https`, or plain `http` to a loopback host only: a literal IPv4 address in 127.0.0.0/8, `::1`, or
///   `localhost`. No other scheme (`file`, `ftp`, …) is fetched.
/// - A request that carries credentials (an `Authorization`, `Cookie` or any header the package did not set
///   itself, or a user name in its URL) never follows a redirect: the 3xx answer is returned as it is, so a key
///   never reaches another server. A request without credentials follows a redirect only when the target obeys
///   the first rule, and only when its policy allows redirects at all.
/// - The response body is read up to ``maximumResponseBytes`` and the request stops there: a larger answer is
///   refused without being held in memory.
/// - ``timeout`` bounds the wait for the next bytes; ``deadline`` bounds the whole request, so a server that
///   trickles a byte at a time cannot hold it open forever.
/// - No cookies and no cache.
package struct OutgoingRequestPolicy: Sendable, Hashable {
    /// Why a URL may not be requested.
    package enum EndpointProblem: Sendable, Hashable {
        /// The URL has no host.
        case missingHost
        /// The scheme is neither `https` nor `http`.
        case unsupportedScheme(String)
        /// Plain `http` to a host that is not a literal loopback address or `localhost`.
        case insecure

        /// The problem in words, for error messages.
        package var reason: String {
            switch self {
            case .missingHost: "it has no host"
            case .unsupportedScheme(let scheme): "the scheme \(scheme) is not https (or http on a loopback host)"
            case .insecure:
                "plain http is allowed only to a loopback host (127.0.0.0/8, ::1, localhost); use https"
            }
        }
    }

    /// How long to wait for the next bytes of a response (an idle timeout).
    package var timeout: Duration
    /// How long the whole request may take, from its start to its last byte.
    package var deadline: Duration
    /// The largest response body read, in bytes.
    package var maximumResponseBytes: Int
    /// Whether a request without credentials follows a redirect (to a target that obeys the endpoint rule).
    package var followsRedirects: Bool

    /// Creates a policy.
    /// - Parameters:
    ///   - timeout: The idle timeout; at least 1 ms.
    ///   - deadline: The total deadline; at least 1 ms.
    ///   - maximumResponseBytes: The largest response body read; at least 1.
    ///   - followsRedirects: Whether requests without credentials follow redirects.
    package init(timeout: Duration, deadline: Duration, maximumResponseBytes: Int, followsRedirects: Bool) {
        self.timeout = max(timeout, .milliseconds(1))
        self.deadline = max(deadline, .milliseconds(1))
        self.maximumResponseBytes = max(maximumResponseBytes, 1)
        self.followsRedirects = followsRedirects
    }

    /// The headers that carry no credentials: the ones the package sets itself.
    static let plainHeaders: Set<String> = [
        "accept", "accept-encoding", "accept-language", "content-length", "content-type", "user-agent",
    ]

    /// Whether `request` carries credentials: an `Authorization` or any header outside the package's plain
    /// ones, or a user name or password in its URL.
    ///
    /// It reads the request alone; a client whose session adds headers to every request asks
    /// ``carriesCredentials(_:sessionHeaders:)`` instead.
    package static func carriesCredentials(_ request: URLRequest) -> Bool {
        carriesCredentials(request, sessionHeaders: nil)
    }

    /// Whether `request`, sent by a session that adds `sessionHeaders` to it, carries credentials: an
    /// `Authorization`, a `Cookie` or any other header outside the package's plain ones, in the request or in the
    /// session's headers, or a user name or password in its URL.
    ///
    /// A session's `httpAdditionalHeaders` go out with every request it sends, redirects included, so a key put
    /// there must keep a redirect from being followed just as a key on the request does.
    /// - Parameters:
    ///   - request: The request.
    ///   - sessionHeaders: The session configuration's `httpAdditionalHeaders`, or nil.
    /// - Returns: Whether a redirect of the request must not be followed.
    package static func carriesCredentials(_ request: URLRequest, sessionHeaders: [AnyHashable: Any]?) -> Bool {
        if let url = request.url, url.user != nil || url.password != nil { return true }
        let requestNames = request.allHTTPHeaderFields?.keys.map { $0.lowercased() } ?? []
        // A session header's name may be any hashable; one that is not a string is not a header URLSession sends,
        // but it is counted all the same rather than guessed about.
        let sessionNames = (sessionHeaders ?? [:]).keys.map { ($0.base as? String)?.lowercased() ?? "\($0)" }
        return (requestNames + sessionNames).contains { !plainHeaders.contains($0) }
    }

    /// Why `name` cannot be sent as an HTTP header name, or nil when it can: a name is an RFC 7230 token, one or
    /// more ASCII letters, digits and the symbols `!#$%&'*+-.^_|~` and the backtick, so no space, colon, CR, LF or
    /// NUL can end the line early and start a header of the caller's choosing.
    /// - Parameter name: The header's name.
    /// - Returns: The problem in words, or nil.
    package static func headerNameProblem(_ name: String) -> String? {
        guard !name.isEmpty else { return "it is empty" }
        let symbols = Set("!#$%&'*+-.^_`|~".unicodeScalars)
        let isToken = name.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || symbols.contains(scalar)
        }
        return isToken ? nil : "it is not an HTTP token (ASCII letters, digits and !#$%&'*+-.^_`|~ only)"
    }

    /// Why `value` cannot be sent as an HTTP header value, or nil when it can: the package sends printable ASCII
    /// only (space to `~`), so no CR, LF or NUL can end the header early (FoundationNetworking drops such a header
    /// without a word) and no other control character or non-ASCII byte reaches a server that reads it
    /// differently. API keys are held to the same rule.
    /// - Parameter value: The header's value.
    /// - Returns: The problem in words, or nil.
    package static func headerValueProblem(_ value: String) -> String? {
        value.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }
            ? nil : "it contains characters that are not printable ASCII"
    }

    /// Why `key` cannot be sent as an API key (`Authorization: Bearer <key>`), or nil when it can: one rule for the
    /// event transport and every HTTP source. A key is not empty, not only whitespace, and a valid header value.
    /// - Parameter key: The API key.
    /// - Returns: The problem in words, or nil.
    package static func apiKeyProblem(_ key: String) -> String? {
        if key.isEmpty { return "it is empty" }
        if key.allSatisfy(\.isWhitespace) { return "it is blank: only whitespace" }
        return headerValueProblem(key)
    }

    /// Why `url` may not be requested, or nil when it may.
    package static func problem(with url: URL) -> EndpointProblem? {
        guard let host = url.host, !host.isEmpty else { return .missingHost }
        switch url.scheme?.lowercased() ?? "" {
        case "https": return nil
        case "http": return isLoopback(host: host) ? nil : .insecure
        case let scheme: return .unsupportedScheme(scheme)
        }
    }

    /// Whether `host` is a loopback host: `localhost`, a literal IPv4 address in 127.0.0.0/8 written as four
    /// decimal octets, or `::1`. A name that only starts with `127.` or `localhost` (`127.0.0.1.example`,
    /// `127.example.com`) is not.
    package static func isLoopback(host: String) -> Bool {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        if host == "localhost" { return true }
        if host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4 else { return false }
        let values = octets.compactMap { octet -> Int? in
            guard (1...3).contains(octet.count), octet.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
            return Int(octet)
        }
        return values.count == 4 && values[0] == 127 && values.allSatisfy { (0...255).contains($0) }
    }

    /// The URL as text with any user name and password removed.
    package static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "(invalid URL)" }
        if components.user != nil || components.password != nil {
            components.user = nil
            components.password = nil
        }
        return components.string ?? "(invalid URL)"
    }
}

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
    package static func carriesCredentials(_ request: URLRequest) -> Bool {
        if let url = request.url, url.user != nil || url.password != nil { return true }
        let names = request.allHTTPHeaderFields?.keys.map { $0.lowercased() } ?? []
        return names.contains { !plainHeaders.contains($0) }
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

import Foundation

/// Why an ``HTTPEventTransport`` could not be created.
///
/// Descriptions never contain the API key, nor credentials written into the endpoint URL.
public enum HTTPEventTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The endpoint uses plain `http` on a host that is not a loopback address.
    case insecureEndpoint(String)
    /// The endpoint's scheme is neither `https` nor `http`.
    case unsupportedScheme(String)
    /// The endpoint has no host.
    case missingHost(String)
    /// The API key is empty or contains characters that cannot go in an HTTP header.
    case invalidAPIKey(reason: String)

    public var description: String {
        switch self {
        case .insecureEndpoint(let endpoint):
            return "The collector endpoint \(endpoint) uses plain HTTP; use https, or http only for a loopback "
                + "host (127.0.0.0/8, ::1, localhost)."
        case .unsupportedScheme(let endpoint):
            return "The collector endpoint \(endpoint) must use https (or http on a loopback host)."
        case .missingHost(let endpoint):
            return "The collector endpoint \(endpoint) has no host."
        case .invalidAPIKey(let reason):
            return "The API key is invalid: \(reason)."
        }
    }
}

/// Endpoint checks for ``HTTPEventTransport``.
enum EndpointSecurity {
    /// Whether `host` is a loopback host: `localhost`, an address in 127.0.0.0/8, or `::1`.
    static func isLoopback(host: String) -> Bool {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        if host == "localhost" { return true }
        if host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4 else { return false }
        let values = octets.compactMap { octet -> Int? in
            guard !octet.isEmpty, octet.count <= 3, octet.allSatisfy(\.isASCII), let value = Int(octet) else {
                return nil
            }
            return value
        }
        return values.count == 4 && values[0] == 127 && values.allSatisfy { (0...255).contains($0) }
    }

    /// The endpoint as text with any user name and password removed.
    static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "(invalid URL)" }
        if components.user != nil || components.password != nil {
            components.user = nil
            components.password = nil
        }
        return components.string ?? "(invalid URL)"
    }

    /// Checks that the endpoint may carry events.
    static func validate(_ endpoint: URL) throws(HTTPEventTransportError) {
        let text = redacted(endpoint)
        let scheme = endpoint.scheme?.lowercased() ?? ""
        guard let host = endpoint.host, !host.isEmpty else { throw .missingHost(text) }
        switch scheme {
        case "https":
            return
        case "http":
            guard isLoopback(host: host) else { throw .insecureEndpoint(text) }
        default:
            throw .unsupportedScheme(text)
        }
    }
}

import Foundation

/// Why an ``HTTPEventTransport`` could not be created. Its initializers throw it untyped; the description says what
/// to fix.
///
/// Descriptions never contain the API key, nor credentials written into the endpoint URL.
package enum HTTPEventTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The endpoint uses plain `http` on a host that is not a loopback address.
    case insecureEndpoint(String)
    /// The endpoint's scheme is neither `https` nor `http`.
    case unsupportedScheme(String)
    /// The endpoint has no host.
    case missingHost(String)
    /// The API key is empty or contains characters that cannot go in an HTTP header.
    case invalidAPIKey(reason: String)

    package var description: String {
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

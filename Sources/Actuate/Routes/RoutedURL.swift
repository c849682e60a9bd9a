import Foundation

/// A URL taken apart for routing: where it came from, its percent-decoded path segments and its query.
package struct RoutedURL: Sendable {
    /// The kind of link, with its scheme or host lowercased.
    enum Origin: Sendable, Hashable {
        case appScheme(String)
        case universal(String)
    }

    let origin: Origin
    package let segments: [String]
    let query: [URLQueryItem]

    /// Parses `url`, or returns nil when its scheme (or, for web links, its host) is not configured.
    ///
    /// For an app link such as `shop://product/42` the host is the first path segment; for a universal link
    /// such as `https://shop.example.com/product/42` the path starts after the host. Empty segments are
    /// ignored, and each segment is percent-decoded on its own, so `%2F` stays inside its segment.
    package init?(_ url: URL, configuration: URLRouterConfiguration) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased()
        else { return nil }
        let host = components.percentEncodedHost ?? ""
        var encoded: [Substring] = []
        if configuration.appSchemes.contains(scheme) {
            origin = .appScheme(scheme)
            if !host.isEmpty { encoded.append(Substring(host)) }
        } else if scheme == "https" || scheme == "http", configuration.universalLinkHosts.contains(host.lowercased()) {
            origin = .universal(host.lowercased())
        } else {
            return nil
        }
        encoded += components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: true)
        segments = encoded.map { $0.removingPercentEncoding ?? String($0) }
        query = components.queryItems ?? []
    }
}

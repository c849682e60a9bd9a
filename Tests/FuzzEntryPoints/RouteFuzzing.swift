import Actuate
import Foundation

/// The entry point of the `RouteMatching` libFuzzer target in `Tests/Fuzz`, and of the regression tests that
/// replay what it found. It lives in `ActuateFuzzEntryPoints`, a target in no product, and reaches the core's
/// `package` route types, so neither it nor they are part of the public API or of what ships.
package enum RouteFuzzing {
    /// Treats the first line of `text` as a route pattern and the rest as a URL, then compiles the pattern,
    /// parses the URL for routing and matches one against the other. It must return, whatever the bytes.
    ///
    /// - Returns: The captured parameters when the pattern compiled and the URL matched it.
    @discardableResult
    package static func compileAndMatch(_ text: String) -> [String: String]? {
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        let patternText = String(parts[0])
        let urlText = parts.count > 1 ? String(parts[1]) : ""
        let configuration = URLRouterConfiguration(appSchemes: ["shop"], universalLinkHosts: ["shop.example.com"])
        guard let url = URL(string: urlText), let routed = RoutedURL(url, configuration: configuration) else {
            _ = try? RoutePattern(patternText)
            return nil
        }
        guard let pattern = try? RoutePattern(patternText) else { return nil }
        return pattern.match(routed.segments)
    }
}

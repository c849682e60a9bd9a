import Actuate
import Foundation

/// The link schemes that personalized content (content actions and content blocks) may report to the app.
///
/// A click on a link reaches the app only when the link's scheme is allowed:
/// - wired through an `ActuateSystem` (``ContentBridge/init(routes:handlerName:maximumHrefLength:maximumArgumentLength:maximumMessageBytes:)``,
///   ``ContentAction/render(on:system:clickedCallback:)``, ``ContentBlockConfiguration/routed(through:)``), the
///   app's own schemes from its `URLRouterConfiguration` plus ``web`` (its universal-link hosts are reached over
///   `https`);
/// - otherwise, the explicit list the app gives, ``web`` by default.
///
/// Whatever a list says, the schemes in `neverAllowed` (`javascript`, `data`, `blob`, `file` and their kin)
/// never reach the app, and neither does a scheme that is not a well-formed URL scheme.
@usableFromInline
package enum ContentLinkSchemes {
    /// `http`, `https`, `mailto` and `tel`: what content may link to in any app.
    @usableFromInline
    package static let web: Set<String> = ["http", "https", "mailto", "tel"]

    /// Schemes that run code or read local data in a web view: `javascript`, `vbscript`, `data`, `blob`, `file`,
    /// `filesystem` and `about`. They are removed from every allowed list.
    package static let neverAllowed: Set<String> = [
        "javascript", "vbscript", "data", "blob", "file", "filesystem", "about",
    ]

    /// The schemes allowed for content in an app whose router answers `routes`: ``web`` plus the app's own schemes.
    /// - Parameter routes: The app's router configuration.
    /// - Returns: The allowed schemes, lowercase, without those in ``neverAllowed``.
    static func allowed(by routes: URLRouterConfiguration) -> Set<String> {
        checked(web.union(routes.appSchemes))
    }

    /// `schemes` lowercased, without the ones in ``neverAllowed`` and those that are not well-formed schemes (a
    /// letter, then letters, digits, `+`, `-` or `.`).
    /// - Parameter schemes: An explicit list.
    /// - Returns: The schemes that may be allowed.
    static func checked<Schemes: Sequence<String>>(_ schemes: Schemes) -> Set<String> {
        Set(schemes.map { $0.lowercased() }.filter { isWellFormed($0) && !neverAllowed.contains($0) })
    }

    /// The scheme of `link`, lowercase, when it is an absolute URL with a well-formed scheme; nil otherwise.
    static func scheme(of link: String) -> String? {
        guard let colon = link.firstIndex(of: ":") else { return nil }
        let scheme = link[..<colon].lowercased()
        return isWellFormed(scheme) ? scheme : nil
    }

    /// Whether `link` is an absolute URL whose scheme is in `allowed` and not in ``neverAllowed``.
    static func allows(_ link: String, in allowed: Set<String>) -> Bool {
        guard let scheme = scheme(of: link), !neverAllowed.contains(scheme) else { return false }
        return allowed.contains(scheme) && URL(string: link) != nil
    }

    private static func isWellFormed(_ scheme: String) -> Bool {
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else {
            return false
        }
        return scheme.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "+-.".unicodeScalars.contains(scalar))
        }
    }
}

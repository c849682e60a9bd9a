/// Which URLs a route answers: links in the app's own schemes, universal links to its web hosts, or both.
public enum URLRouteScope: Sendable, Hashable, CustomStringConvertible {
    /// Every app scheme in the router's configuration.
    case appSchemes
    /// Every universal-link host in the router's configuration.
    case universalLinks
    /// One app scheme, such as `shop` for `shop://product/42`. It must be in the router's configuration.
    case appScheme(String)
    /// One universal-link host, such as `shop.example.com`. It must be in the router's configuration.
    case universal(String)

    /// The default: every configured app scheme and universal-link host.
    package static let all: [URLRouteScope] = [.appSchemes, .universalLinks]

    public var description: String {
        switch self {
        case .appSchemes: "app schemes"
        case .universalLinks: "universal links"
        case .appScheme(let scheme): "app scheme '\(scheme)'"
        case .universal(let host): "universal links on '\(host)'"
        }
    }

    /// The scope with its scheme or host lowercased, as URLs are compared.
    var normalized: URLRouteScope {
        switch self {
        case .appSchemes, .universalLinks: self
        case .appScheme(let scheme): .appScheme(scheme.lowercased())
        case .universal(let host): .universal(host.lowercased())
        }
    }

    /// Whether a URL of `origin` falls within the scope.
    func accepts(_ origin: RoutedURL.Origin) -> Bool {
        switch (self, origin) {
        case (.appSchemes, .appScheme), (.universalLinks, .universal): true
        case (.appScheme(let scheme), .appScheme(let actual)): scheme == actual
        case (.universal(let host), .universal(let actual)): host == actual
        default: false
        }
    }
}

/// The app schemes and universal-link hosts a ``URLRouter`` answers.
public struct URLRouterConfiguration: Sendable, Hashable {
    /// The app's URL schemes, such as `shop`, compared without case.
    public var appSchemes: [String]
    /// The hosts of the app's universal links, such as `shop.example.com`, compared without case.
    public var universalLinkHosts: [String]

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - appSchemes: The app's URL schemes.
    ///   - universalLinkHosts: The hosts of its universal links, reached over `https` (or `http`).
    public init(appSchemes: [String] = [], universalLinkHosts: [String] = []) {
        self.appSchemes = appSchemes.map { $0.lowercased() }
        self.universalLinkHosts = universalLinkHosts.map { $0.lowercased() }
    }

    /// Whether the scope names a scheme or host this configuration holds.
    func isConfigured(_ scope: URLRouteScope) -> Bool {
        switch scope.normalized {
        case .appSchemes, .universalLinks: true
        case .appScheme(let scheme): appSchemes.contains(scheme)
        case .universal(let host): universalLinkHosts.contains(host)
        }
    }
}

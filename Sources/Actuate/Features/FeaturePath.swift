import Foundation

/// The identifier of a feature: the type names of its groups and itself, outermost first.
public struct FeaturePath: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The type names, outermost first.
    public let components: [String]

    /// Creates a path.
    package init(_ components: [String]) {
        self.components = components
    }

    /// The path of a subfeature of this one.
    package func appending(_ component: String) -> FeaturePath {
        FeaturePath(components + [component])
    }

    /// Whether this path equals `other` or lies inside it.
    public func isWithin(_ other: FeaturePath) -> Bool {
        components.count >= other.components.count
            && Array(components.prefix(other.components.count))
                == other.components
    }

    /// The path component of a feature type: its unqualified type name, without generic arguments.
    ///
    /// - Parameter feature: The feature type.
    /// - Returns: The component, such as `SearchFeature` for `MyApp.Books.SearchFeature`.
    static func component(for feature: any FeatureDefinition.Type) -> String {
        // The words joined without spaces; Foundation's `replacingOccurrences` cost 57,000 instructions a feature.
        String(TypeNaming.displayName(of: feature, removingSuffix: "").filter { $0 != " " })
    }

    /// The components joined with `/`, such as `AppFeatures/ShoppingCartFeature`.
    public var description: String { components.joined(separator: "/") }
}

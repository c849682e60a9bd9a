import Foundation

/// Every feature and action of an app, read from its registered feature group at run time: each action's
/// input, presenter, queue, analytics ID, activity eligibility and URL routes, and each feature's constraints.
/// Actions without a written description are flagged (`actionsWithoutDescription`).
///
/// Because it is built from the types themselves rather than from source text, the catalog is exact. Render it
/// as Markdown for people, or as JSON for tools such as `actuate catalog`:
///
/// ```swift
/// let catalog = try ActionCatalog(
///     group: AppFeatures.self,
///     routes: URLRouterConfiguration(appSchemes: ["shop"], universalLinkHosts: ["shop.example.com"])
/// )
/// print(catalog.markdown())
/// try catalog.jsonData().write(to: URL(filePath: "actions.json"))
/// ```
///
/// The catalog is also a ``DebugReportable``: register it with a ``DebugReport`` to add a `catalog` section.
public struct ActionCatalog: Sendable, Hashable, Codable {
    /// The version of the JSON format that ``jsonData()`` writes and ``decode(from:)`` reads.
    package static let formatVersion = 1

    /// The version of the format this catalog was written in.
    package var formatVersion: Int
    /// The display name of the group the catalog was built from.
    package var groupName: String
    /// Every feature of the group, the group first, then each subfeature after its parent, in declaration
    /// order.
    package var features: [FeatureEntry]

    /// Builds the catalog of `group`, registering the group (so its features get their paths) if it was not yet.
    ///
    /// - Parameters:
    ///   - group: The app's feature group, or a single feature.
    ///   - routes: The app schemes and universal-link hosts, used to write each route's links; with none, routes
    ///     are listed by pattern only.
    /// - Throws: ``FeaturePathClash`` when two types of the group would have the same path.
    public init(
        group: any FeatureDefinition.Type,
        routes: URLRouterConfiguration = URLRouterConfiguration()
    ) throws(FeaturePathClash) {
        let registered = try FeatureRegistry.shared.register(group)
        var features: [FeatureEntry] = []
        Self.collect(group, routes: routes, into: &features)
        self.formatVersion = Self.formatVersion
        self.groupName = registered.first?.name ?? ""
        self.features = features
    }

    /// Creates a catalog from its parts, for example to test a renderer.
    ///
    /// - Parameters:
    ///   - groupName: The display name of the group.
    ///   - features: The features, the group first.
    package init(groupName: String, features: [FeatureEntry]) {
        self.formatVersion = Self.formatVersion
        self.groupName = groupName
        self.features = features
    }

    /// Every action of every feature, in catalog order.
    package var allActions: [ActionEntry] {
        features.flatMap(\.actions)
    }

    /// The actions no description was written for (``ActionEntry/hasDescription`` is false), in catalog order.
    /// The Markdown lists them under the summary and marks their rows.
    package var actionsWithoutDescription: [ActionEntry] {
        allActions.filter { !$0.hasDescription }
    }

    /// The catalog as pretty-printed JSON with sorted keys.
    ///
    /// - Returns: The JSON document, which `decode(from:)` reads back.
    /// - Throws: An encoding error, which the catalog's plain values never produce.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// The catalog as a Markdown document: one section per feature with a table of its actions.
    ///
    /// - Returns: The Markdown text.
    public func markdown() -> String {
        ActionCatalogMarkdown(catalog: self).render()
    }

    private static func collect(
        _ feature: any FeatureDefinition.Type,
        routes: URLRouterConfiguration,
        into features: inout [FeatureEntry]
    ) {
        features.append(entry(for: feature, routes: routes))
        if let group = FeatureKinds.group(of: feature) {
            for subfeature in group.subfeatures {
                collect(subfeature, routes: routes, into: &features)
            }
        }
    }

    private static func entry<F: FeatureDefinition>(
        for feature: F.Type,
        routes: URLRouterConfiguration
    )
        -> FeatureEntry
    {
        let metadata = FeatureRegistry.shared.metadata(for: feature)
        var declarations: [RouteDeclaration] = []
        if let mapped = FeatureKinds.urlMapped(of: feature) {
            declarations = routeDeclarations(of: mapped)
        }
        var constraints: [ConstraintEntry]?
        if let conditional = FeatureKinds.conditional(of: feature) {
            constraints = Self.constraints(of: conditional)
        }
        let actions = metadata.actions.map { action in
            ActionEntry(
                action,
                routes: declarations.filter { $0.target.actionID == action.typeID }.map {
                    RouteEntry($0, configuration: routes)
                }
            )
        }
        return FeatureEntry(
            name: metadata.name,
            path: metadata.path.description,
            parentPath: metadata.parentPath?.description,
            description: metadata.description,
            kind: FeatureKinds.group(of: feature) != nil ? .group : .feature,
            isVisible: metadata.isVisible,
            isConditional: constraints != nil,
            constraints: constraints ?? [],
            actions: actions
        )
    }

    private static func routeDeclarations<F: URLMapped>(of feature: F.Type) -> [RouteDeclaration] {
        let builder = URLMappingsBuilder<F>()
        F.urlMappings(routes: builder)
        return builder.declarations
    }

    private static func constraints<F: ConditionalFeature>(of feature: F.Type) -> [ConstraintEntry] {
        let builder = FeatureConstraintsBuilder(isEnabled: { F.isEnabled })
        F.constraints(requirements: builder)
        return builder.allConstraints.map(ConstraintEntry.init)
    }
}

extension ActionCatalog {
    /// Whether a catalog entry is a plain feature or a group of features.
    package enum FeatureKind: String, Sendable, Hashable, Codable {
        /// A ``Feature`` or ``ConditionalFeature`` that declares actions.
        case feature
        /// A ``FeatureGroup``.
        case group
    }

    /// One feature of a catalog.
    package struct FeatureEntry: Sendable, Hashable, Codable {
        /// The display name.
        package var name: String
        /// The feature's identifier, such as `ShopFeatures/Cart`.
        package var path: String
        /// The identifier of the group the feature belongs to, or nil for the catalog's group itself.
        package var parentPath: String?
        /// The feature's description.
        package var description: String
        /// Whether it is a feature or a group.
        package var kind: FeatureKind
        /// Whether the feature appears in catalogs and UIs.
        package var isVisible: Bool
        /// Whether it is a ``ConditionalFeature``.
        package var isConditional: Bool
        /// The conditions a conditional feature needs, in declaration order (platforms first).
        package var constraints: [ConstraintEntry]
        /// The declared actions, in declaration order.
        package var actions: [ActionEntry]

        /// Creates a feature entry.
        ///
        /// - Parameters:
        ///   - name: The display name.
        ///   - path: The identifier.
        ///   - parentPath: The identifier of its group, if any.
        ///   - description: The description.
        ///   - kind: Feature or group.
        ///   - isVisible: Whether it appears in catalogs and UIs.
        ///   - isConditional: Whether it is a conditional feature.
        ///   - constraints: The conditions it needs.
        ///   - actions: Its actions.
        package init(
            name: String,
            path: String,
            parentPath: String? = nil,
            description: String = "",
            kind: FeatureKind = .feature,
            isVisible: Bool = true,
            isConditional: Bool = false,
            constraints: [ConstraintEntry] = [],
            actions: [ActionEntry] = []
        ) {
            self.name = name
            self.path = path
            self.parentPath = parentPath
            self.description = description
            self.kind = kind
            self.isVisible = isVisible
            self.isConditional = isConditional
            self.constraints = constraints
            self.actions = actions
        }
    }

    /// One action of a feature in a catalog.
    package struct ActionEntry: Sendable, Hashable, Codable {
        /// The display name, from ``Action/name``.
        package var name: String
        /// The Swift type name.
        package var typeName: String
        /// The action's description: `ActionDescription.missing` when none was written.
        package var description: String
        /// Whether the feature published the action.
        package var isPublished: Bool
        /// The input type, such as `String` or `NoInput`.
        package var inputType: String
        /// The presenter type, such as `any ShopPresenter` or `NoPresenter`.
        package var presenterType: String
        /// The label of the queue the action runs on.
        package var queueLabel: String
        /// The analytics identifier, if the action emits analytics.
        package var analyticsID: String?
        /// The ways the action may be exposed as an activity, sorted by name.
        package var activityEligibility: [String]
        /// Whether the action is left out of the timeline.
        package var hideFromTimeline: Bool
        /// The URL routes that perform the action.
        package var routes: [RouteEntry]

        /// Whether a description was written for the action: false when ``description`` is the default
        /// `ActionDescription.missing`, or blank. The JSON carries it as `hasDescription`, and the Markdown flags
        /// the action.
        package var hasDescription: Bool { !ActionDescription.isMissing(description) }

        /// Creates an action entry.
        ///
        /// - Parameters:
        ///   - name: The display name.
        ///   - typeName: The Swift type name.
        ///   - description: The description; `ActionDescription.missing` when none was written.
        ///   - isPublished: Whether the feature published it.
        ///   - inputType: The input type's name.
        ///   - presenterType: The presenter type's name.
        ///   - queueLabel: The label of its queue.
        ///   - analyticsID: The analytics identifier, if any.
        ///   - activityEligibility: The activity eligibility, by name.
        ///   - hideFromTimeline: Whether it is left out of the timeline.
        ///   - routes: Its URL routes.
        package init(
            name: String,
            typeName: String,
            description: String = ActionDescription.missing,
            isPublished: Bool = false,
            inputType: String = "NoInput",
            presenterType: String = "NoPresenter",
            queueLabel: String,
            analyticsID: String? = nil,
            activityEligibility: [String] = [],
            hideFromTimeline: Bool = false,
            routes: [RouteEntry] = []
        ) {
            self.name = name
            self.typeName = typeName
            self.description = description
            self.isPublished = isPublished
            self.inputType = inputType
            self.presenterType = presenterType
            self.queueLabel = queueLabel
            self.analyticsID = analyticsID
            self.activityEligibility = activityEligibility
            self.hideFromTimeline = hideFromTimeline
            self.routes = routes
        }

        init(_ metadata: ActionMetadata, routes: [RouteEntry]) {
            self.init(
                name: metadata.name,
                typeName: metadata.typeName,
                description: metadata.description,
                isPublished: metadata.isPublished,
                inputType: metadata.inputTypeName,
                presenterType: metadata.presenterTypeName,
                queueLabel: metadata.queueLabel,
                analyticsID: metadata.actionType.analyticsID,
                activityEligibility: metadata.actionType.activityEligibility.map(\.rawValue).sorted(),
                hideFromTimeline: metadata.actionType.hideFromTimeline,
                routes: routes
            )
        }

        private enum CodingKeys: String, CodingKey {
            case name, typeName, description, hasDescription, isPublished, inputType, presenterType, queueLabel
            case analyticsID, activityEligibility, hideFromTimeline, routes
        }

        /// Reads an entry; `hasDescription` is not read but follows from `description`.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                name: try container.decode(String.self, forKey: .name),
                typeName: try container.decode(String.self, forKey: .typeName),
                description: try container.decode(String.self, forKey: .description),
                isPublished: try container.decode(Bool.self, forKey: .isPublished),
                inputType: try container.decode(String.self, forKey: .inputType),
                presenterType: try container.decode(String.self, forKey: .presenterType),
                queueLabel: try container.decode(String.self, forKey: .queueLabel),
                analyticsID: try container.decodeIfPresent(String.self, forKey: .analyticsID),
                activityEligibility: try container.decode([String].self, forKey: .activityEligibility),
                hideFromTimeline: try container.decode(Bool.self, forKey: .hideFromTimeline),
                routes: try container.decode([RouteEntry].self, forKey: .routes)
            )
        }

        /// Writes the entry, with `hasDescription` for tools that list undocumented actions.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(typeName, forKey: .typeName)
            try container.encode(description, forKey: .description)
            try container.encode(hasDescription, forKey: .hasDescription)
            try container.encode(isPublished, forKey: .isPublished)
            try container.encode(inputType, forKey: .inputType)
            try container.encode(presenterType, forKey: .presenterType)
            try container.encode(queueLabel, forKey: .queueLabel)
            try container.encodeIfPresent(analyticsID, forKey: .analyticsID)
            try container.encode(activityEligibility, forKey: .activityEligibility)
            try container.encode(hideFromTimeline, forKey: .hideFromTimeline)
            try container.encode(routes, forKey: .routes)
        }
    }

    /// A URL route to an action.
    package struct RouteEntry: Sendable, Hashable, Codable {
        /// The pattern as the feature declared it, such as `product/$(id)`.
        package var pattern: String
        /// Where the route applies, such as `app schemes` or `universal links on 'shop.example.com'`.
        package var scopes: [String]
        /// The pattern written as links for the configured schemes and hosts, such as `shop://product/$(id)`.
        package var links: [String]

        /// Creates a route entry.
        ///
        /// - Parameters:
        ///   - pattern: The pattern.
        ///   - scopes: Where it applies.
        ///   - links: The pattern as links.
        package init(pattern: String, scopes: [String], links: [String] = []) {
            self.pattern = pattern
            self.scopes = scopes
            self.links = links
        }

        init(_ declaration: RouteDeclaration, configuration: URLRouterConfiguration) {
            let scopes = declaration.scopes.isEmpty ? URLRouteScope.all : declaration.scopes.map(\.normalized)
            let path =
                declaration.pattern.hasPrefix("/") ? String(declaration.pattern.dropFirst()) : declaration.pattern
            var links: [String] = []
            for scope in scopes {
                switch scope {
                case .appSchemes: links += configuration.appSchemes.map { "\($0)://\(path)" }
                case .universalLinks: links += configuration.universalLinkHosts.map { "https://\($0)/\(path)" }
                case .appScheme(let scheme): links.append("\(scheme)://\(path)")
                case .universal(let host): links.append("https://\(host)/\(path)")
                }
            }
            self.init(pattern: declaration.pattern, scopes: scopes.map(\.description), links: links)
        }
    }

    /// One condition a conditional feature needs.
    package struct ConstraintEntry: Sendable, Hashable, Codable {
        /// The kind of condition: `platform`, `runtime`, `userToggle`, `permission` or `purchase`.
        package var kind: String
        /// The condition in words, such as `user toggle (feature path) (default false)`.
        package var description: String

        /// Creates a constraint entry.
        ///
        /// - Parameters:
        ///   - kind: The kind of condition.
        ///   - description: The condition in words.
        package init(kind: String, description: String) {
            self.kind = kind
            self.description = description
        }

        init(_ constraint: FeatureConstraint) {
            let kind =
                switch constraint {
                case .platforms: "platform"
                case .runtime: "runtime"
                case .userToggle: "userToggle"
                case .permission: "permission"
                case .purchase: "purchase"
                }
            self.init(kind: kind, description: constraint.description)
        }
    }
}

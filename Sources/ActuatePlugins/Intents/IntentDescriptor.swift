import ActuateCore

/// A portable description of one intent: what an ``IntentDonor`` donates and an ``IntentRouter`` performs.
///
/// The parameters are the action's input written as `RouteParameterValues`: named values under their names,
/// a single value (such as a `String` or `Int` input) under `singleValueParameterName`, and none for
/// `NoInput`.
///
/// An ``IntentDonationPlugin`` donating `OrdersFeature.reorder` performed with the input `"o-17"` donates the
/// identifier `"OrdersFeature.ReorderAction"` with the parameters `["value": "o-17"]`.
public struct IntentDescriptor: Sendable, Hashable, Codable {
    /// The parameter name of a single-value input.
    public static let singleValueParameterName = "value"

    /// Identifies the action: its feature path's components and its type name, joined with dots.
    public var identifier: String
    /// The title shown to the user, from ``IntentAction/intentTitle(for:)``.
    public var title: String
    /// The phrase to suggest for a voice shortcut, from `Action.suggestedInvocationPhrase`.
    public var suggestedInvocationPhrase: String?
    /// The input's values by parameter name.
    public var parameters: [String: String]
    /// The display name of the action.
    public var actionName: String
    /// The identifier of the action's feature.
    public var featurePath: FeaturePath

    /// Creates a descriptor from its parts.
    ///
    /// - Parameters:
    ///   - identifier: Identifies the action, as ``identifier(for:)`` gives it.
    ///   - title: The title shown to the user.
    ///   - suggestedInvocationPhrase: The phrase to suggest for a voice shortcut.
    ///   - parameters: The input's values by parameter name.
    ///   - actionName: The display name of the action.
    ///   - featurePath: The identifier of the action's feature.
    init(
        identifier: String,
        title: String,
        suggestedInvocationPhrase: String? = nil,
        parameters: [String: String] = [:],
        actionName: String,
        featurePath: FeaturePath
    ) {
        self.identifier = identifier
        self.title = title
        self.suggestedInvocationPhrase = suggestedInvocationPhrase
        self.parameters = parameters
        self.actionName = actionName
        self.featurePath = featurePath
    }

    /// Describes the intent of performing a binding's action with `input`.
    ///
    /// - Parameters:
    ///   - binding: The action's binding.
    ///   - input: The input the intent carries.
    init<F, A: IntentAction>(_ binding: StaticActionBinding<F, A>, input: A.InputType) {
        self.init(A.self, input: input, featurePath: F.identifier)
    }

    init<A: IntentAction>(_ action: A.Type, input: A.InputType, featurePath: FeaturePath) {
        self.init(
            identifier: Self.identifier(featurePath: featurePath, actionTypeName: String(describing: A.self)),
            title: A.intentTitle(for: input),
            suggestedInvocationPhrase: A.suggestedInvocationPhrase,
            parameters: Self.parameters(input.routeParameterValues),
            actionName: A.name,
            featurePath: featurePath
        )
    }

    /// The identifier of a binding's intents, such as `ShopFeatures.OrdersFeature.ReorderAction`.
    ///
    /// - Parameter binding: The action's binding.
    /// - Returns: The identifier.
    public static func identifier<F, A>(for binding: StaticActionBinding<F, A>) -> String {
        identifier(featurePath: F.identifier, actionTypeName: String(describing: A.self))
    }

    static func identifier(featurePath: FeaturePath, actionTypeName: String) -> String {
        (featurePath.components + [actionTypeName]).map(ActivitiesPlugin.sanitized).joined(separator: ".")
    }

    static func parameters(_ values: RouteParameterValues) -> [String: String] {
        switch values {
        case .none: [:]
        case .single(let value): [singleValueParameterName: value]
        case .named(let values): values
        }
    }
}

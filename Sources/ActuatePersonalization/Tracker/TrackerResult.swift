/// What a ``Tracker`` answers: the conditions (campaigns) the visitor matched and the content actions to show.
public struct TrackerResult: Sendable, Hashable, Codable {
    /// The conditions the visitor matched, including those where the visitor is in the control group.
    public var conditions: [TrackerCondition]
    /// The content actions to show, in order; none for control-group conditions or suppressed actions.
    public var actions: [ContentAction]

    /// A result with nothing to show.
    package static let empty = TrackerResult()

    /// Creates a result.
    /// - Parameters:
    ///   - conditions: The matched conditions.
    ///   - actions: The content actions to show.
    public init(conditions: [TrackerCondition] = [], actions: [ContentAction] = []) {
        self.conditions = conditions
        self.actions = actions
    }

    /// The action with `id`, if the result holds it.
    /// - Parameter id: The action id.
    /// - Returns: The action, or nil.
    public func action(id: Int) -> ContentAction? {
        actions.first { $0.id == id }
    }
}

/// A condition (a campaign) that a visitor matched.
public struct TrackerCondition: Sendable, Hashable, Codable {
    /// The condition's id.
    public var id: Int
    /// The condition's name.
    public var name: String?
    /// Whether the visitor is in the condition's control group: the condition matched, but its actions are
    /// held back so that their effect can be measured.
    public var isControlGroup: Bool

    private enum CodingKeys: String, CodingKey {
        case id
        case name
        case isControlGroup
    }

    /// Creates a condition.
    /// - Parameters:
    ///   - id: The condition's id.
    ///   - name: The condition's name.
    ///   - isControlGroup: Whether the visitor is in its control group.
    init(id: Int, name: String? = nil, isControlGroup: Bool = false) {
        self.id = id
        self.name = name
        self.isControlGroup = isControlGroup
    }

    /// Decodes a condition; `isControlGroup` is false when absent.
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when `id` is missing or a field has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        isControlGroup = try container.decodeIfPresent(Bool.self, forKey: .isControlGroup) ?? false
    }
}

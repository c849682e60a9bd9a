/// Where a request to perform an action came from.
///
/// In JSON it is an object with a `kind` (`application`, `openURL`, `continueActivity` with its
/// `activityType`, or `intent`), as in debug report format 1.
public enum ActionSource: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The app's own code.
    case application
    /// A URL the app was asked to open.
    case openURL
    /// An activity the system asked the app to continue, with its activity type.
    case continueActivity(type: String)
    /// A system intent, such as a Siri shortcut.
    case intent

    public var description: String {
        switch self {
        case .application: "application"
        case .openURL: "openURL"
        case .continueActivity(let type): "continueActivity(\(type))"
        case .intent: "intent"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case kind
        case activityType
    }

    private enum Kind: String, Codable {
        case application
        case openURL
        case continueActivity
        case intent
    }

    /// Decodes `{"kind": ...}`; `activityType` is required for `continueActivity`, other keys are ignored.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for an unknown kind or a missing activity type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Kind.self, forKey: .kind) {
        case .application: self = .application
        case .openURL: self = .openURL
        case .intent: self = .intent
        case .continueActivity:
            self = .continueActivity(type: try container.decode(String.self, forKey: .activityType))
        }
    }

    /// Encodes `{"kind": ...}`, with `activityType` for `continueActivity`.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: An encoding error from `encoder`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .application: try container.encode(Kind.application, forKey: .kind)
        case .openURL: try container.encode(Kind.openURL, forKey: .kind)
        case .intent: try container.encode(Kind.intent, forKey: .kind)
        case .continueActivity(let type):
            try container.encode(Kind.continueActivity, forKey: .kind)
            try container.encode(type, forKey: .activityType)
        }
    }
}

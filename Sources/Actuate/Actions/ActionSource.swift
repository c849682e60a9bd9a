/// Where a request to perform an action came from.
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
}

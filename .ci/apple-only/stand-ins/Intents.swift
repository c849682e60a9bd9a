// Stand-in for Apple's Intents: the declarations `InteractionIntentDonor.swift` and `UserActivityPublisher.swift`
// use, in the shapes of the real ones. Type-checked against on Linux by `.ci/apple-only`; never linked.
import AppleFoundation
import Foundation

/// An intent: the app's generated intent classes subclass it. `suggestedInvocationPhrase`: iOS 12, macOS 11,
/// tvOS 12, watchOS 5, visionOS 1.
open class INIntent: NSObject, @unchecked Sendable {
    open var identifier: String? { nil }
    open var suggestedInvocationPhrase: String?
}

/// The response to an intent.
open class INIntentResponse: NSObject, @unchecked Sendable {}

/// An intent and its response, donated to the system: iOS 10, macOS 11, tvOS 14, watchOS 3.2, visionOS 1.
open class INInteraction: NSObject, @unchecked Sendable {
    public init(intent: INIntent, response: INIntentResponse?) {}
    open func donate(completion: (@Sendable ((any Error)?) -> Void)? = nil) {}
}

#if os(iOS) || os(macOS) || os(watchOS) || os(visionOS)
extension NSUserActivity {
    /// iOS 12, macOS 12, watchOS 5, visionOS 1; not tvOS. Declared by Intents, so it needs `import Intents`.
    public var suggestedInvocationPhrase: String? {
        get { nil }
        set {}
    }
}
#endif

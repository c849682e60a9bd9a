import Actuate
import ActuateReporting

/// What happened to a content block in a placeholder: the input of the content-block tracking actions.
///
/// It is recorded as a content event of source `contentBlock` (`ContentReference/contentBlock(id:name:)`):
/// a show as `executed`, a click as `target` with the link in `href`, a close as `close` and an error as
/// `error` with its `message`, plus the keys in ``ContentBlockEventKey``: `placeholder`, `blockType`,
/// `variantId`, `variantName`, the click's `text` and the close's `interaction`. An error that belongs to no
/// block (the source failed) is recorded as a `content_block_error` event with the placeholder and message.
struct ContentBlockEvent: Loggable, Hashable {
    /// The kinds of content-block event.
    enum Kind: Sendable, Hashable {
        /// The block was shown, with its content and assets loaded.
        case show
        /// The user clicked an action in the block.
        case click(ContentBlockLink)
        /// The block was closed; `userInteraction` is false when the app or a timeout closed it.
        case close(userInteraction: Bool)
        /// Showing the block failed.
        case error(message: String)
    }

    /// What happened.
    var kind: Kind
    /// The placeholder the block was in.
    var placeholderID: String
    /// The block, or nil for an error that belongs to no block.
    var block: ContentBlock?
    /// Records the event whatever the consent, tagged `tracking_forced`.
    var forceTracking: Bool

    /// Creates an event.
    /// - Parameters:
    ///   - kind: What happened.
    ///   - placeholderID: The placeholder.
    ///   - block: The block, or nil for an error that belongs to no block.
    ///   - forceTracking: Whether to record it whatever the consent.
    init(kind: Kind, placeholderID: String, block: ContentBlock?, forceTracking: Bool = false) {
        self.kind = kind
        self.placeholderID = placeholderID
        self.block = block
        self.forceTracking = forceTracking
    }

    /// The placeholder, the block and what happened, for example `home spring-hero "Spring hero" show`.
    var loggingDescription: String {
        var text = placeholderID + " " + (block.map(\.description) ?? "(no block)")
        switch kind {
        case .show: text += " show"
        case .click(let action): text += " click \(action.url)"
        case .close(let userInteraction): text += userInteraction ? " close by user" : " close"
        case .error(let message): text += " error \(message.count > 60 ? String(message.prefix(59)) + "…" : message)"
        }
        return forceTracking ? text + " (forced)" : text
    }

    /// Records the event through `reporter`, unless the block's server consent says no and it is not forced.
    /// - Returns: What the reporter did, or nil when the block's consent kept it from the reporter.
    func record(on reporter: Reporter) -> RecordOutcome? {
        if !forceTracking, block?.tracksWithConsent == false { return nil }
        var properties: [String: JSONValue] = [ContentBlockEventKey.placeholder: .string(placeholderID)]
        guard let block else {
            if case .error(let message) = kind { properties[ReportEventKey.message] = .string(message) }
            return reporter.record(
                type: ContentBlockEventKey.blockErrorType,
                properties: properties,
                forceTracking: forceTracking
            )
        }
        properties[ContentBlockEventKey.blockType] = .string(block.type)
        if let variant = block.variant {
            properties[ContentBlockEventKey.variantID] = .string(variant.id)
            if let name = variant.name { properties[ContentBlockEventKey.variantName] = .string(name) }
        }
        let event: ContentEvent
        switch kind {
        case .show:
            event = .executed
        case .click(let action):
            event = .target(href: action.url)
            if let text = action.text { properties[ContentBlockEventKey.text] = .string(text) }
        case .close(let userInteraction):
            event = .close(dontShowSessions: 0)
            properties[ContentBlockEventKey.interaction] = .bool(userInteraction)
        case .error(let message):
            event = .error(message: message)
        }
        return reporter.record(
            event,
            for: .contentBlock(id: block.id, name: block.name),
            properties: properties,
            forceTracking: forceTracking
        )
    }
}

/// The property names content-block events add to the reporting layer's `ReportEventKey` names.
package enum ContentBlockEventKey {
    /// The placeholder the block was in.
    package static let placeholder = "placeholder"
    /// The block's type (Exponea's `banner_type`).
    package static let blockType = "blockType"
    /// The experiment variant's id.
    package static let variantID = "variantId"
    /// The experiment variant's name.
    package static let variantName = "variantName"
    /// For clicks: the clicked element's text (the link is in `href`).
    package static let text = "text"
    /// For closes: whether the user closed the block (false when the app or a timeout did).
    package static let interaction = "interaction"
    /// The type of an error event that belongs to no block, such as a source that failed.
    package static let blockErrorType: ReportEventType = "content_block_error"
}

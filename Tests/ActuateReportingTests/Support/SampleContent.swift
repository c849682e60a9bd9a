import ActuateReporting

/// A content event as sample data for reporting's tests, built on reporting's own API.
///
/// Each case records exactly what personalization's `ContentEvent` records (the same type and the same
/// properties), so the reporter's, consent's and the statistics' tests need not import personalization. The names
/// differ from personalization's on purpose (`record(content:for:)`, `sampleAction(id:name:)`): a test target sees
/// the extension members of every module its dependencies import, and ActuateFuzzEntryPoints imports
/// ActuatePersonalization, so the same names would be ambiguous.
enum SampleContent: Sendable, Hashable {
    /// The content was shown.
    case executed
    /// The content's main target was clicked, following `href` if there is one.
    case target(href: String? = nil)
    /// The content was closed, not to be shown for `dontShowSessions` sessions.
    case close(dontShowSessions: Int = 0)
    /// A product inside the content was clicked.
    case product(productID: String)
    /// An article inside the content was clicked.
    case article(articleID: String)
    /// Presenting the content failed.
    case error(message: String)

    /// The event type this event is recorded under.
    var type: ReportEventType {
        switch self {
        case .executed: ContentStatus.executed.eventType
        case .target: ContentStatus.target.eventType
        case .close: ContentStatus.close.eventType
        case .product: ContentStatus.product.eventType
        case .article: ContentStatus.article.eventType
        case .error: ContentStatus.error.eventType
        }
    }

    /// The content's identity (``EventProperties/content(_:)``) plus this event's argument.
    /// - Parameter content: The content the event is about.
    /// - Returns: The event's properties.
    func properties(for content: ContentReference) -> [String: JSONValue] {
        let argument: [String: JSONValue] =
            switch self {
            case .executed: [:]
            case .target(let href): href.map { ["href": .string($0)] } ?? [:]
            case .close(let sessions): ["dontShowSessions": .number(Double(max(0, sessions)))]
            case .product(let productID): ["productId": .string(productID)]
            case .article(let articleID): ["articleId": .string(articleID)]
            case .error(let message): ["message": .string(message)]
            }
        return EventProperties.content(content).merging(argument) { _, argument in argument }
    }
}

extension ContentSource {
    /// The wire name personalization's content actions record under.
    static let sampleAction = ContentSource(rawValue: "action")
    /// The wire name personalization's campaigns record under.
    static let sampleCampaign = ContentSource(rawValue: "campaign")
}

extension ContentReference {
    /// Sample content from the `action` source, as a content action with a numeric id.
    /// - Parameters:
    ///   - id: The numeric id.
    ///   - name: The name.
    /// - Returns: The reference.
    static func sampleAction(id: Int, name: String? = nil) -> ContentReference {
        ContentReference(source: .sampleAction, id: String(id), name: name)
    }

    /// Sample content from the `campaign` source.
    /// - Parameters:
    ///   - id: The campaign id.
    ///   - name: The name.
    /// - Returns: The reference.
    static func sampleCampaign(id: String, name: String? = nil) -> ContentReference {
        ContentReference(source: .sampleCampaign, id: id, name: name)
    }
}

extension Reporter {
    /// Records a sample content event through ``Reporter/record(type:properties:forceTracking:)``.
    /// - Parameters:
    ///   - event: The event.
    ///   - reference: The content it happened to.
    ///   - properties: Extra properties; the content's identity and the event's argument take precedence.
    ///   - forceTracking: Stores the event even while consent is denied.
    /// - Returns: What the reporter returned.
    @discardableResult
    func record(
        content event: SampleContent,
        for reference: ContentReference,
        properties: [String: JSONValue] = [:],
        forceTracking: Bool = false
    ) -> RecordOutcome {
        let merged = properties.merging(event.properties(for: reference)) { _, built in built }
        return record(type: event.type, properties: merged, forceTracking: forceTracking)
    }
}

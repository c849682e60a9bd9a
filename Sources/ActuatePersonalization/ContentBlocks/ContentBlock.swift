import Foundation

/// An in-app content block: HTML shown inside placeholders that the app has placed, with the rules that decide
/// when it may appear.
///
/// Blocks come from a ``ContentBlockSource``. In a rules file they are the elements of the `contentBlocks`
/// array (see `ContentBlockRules`):
///
/// ```json
/// { "id": "spring-hero", "name": "Spring hero", "placeholders": ["home"], "priority": 10,
///   "frequency": "onlyOnce", "html": "<a href=\"https://shop.example.com/spring\">Spring sale</a>" }
/// ```
public struct ContentBlock: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The block's id, unique within its source.
    public var id: String
    /// The block's name, shown in reports; selection orders blocks of equal priority by it.
    public var name: String
    /// The ids of the placeholders the block may appear in.
    package var placeholders: [String]
    /// The block's type, reported with every event (Exponea's `banner_type`); `html` unless the source says
    /// otherwise.
    package var type: String
    /// Higher priorities are shown first.
    package var priority: Int
    /// How often the block may be shown.
    package var frequency: ContentBlockFrequency
    /// The variant of an experiment the block belongs to, if any.
    package var variant: ContentBlockVariant?
    /// The version of the block's content. Assets are cached by URL and this version, so a new version fetches
    /// its images again even when their URLs did not change.
    package var version: Int
    /// The block's HTML: a fragment that is wrapped in a full document when shown.
    public var html: String
    /// Assets to load before the block counts as shown, besides the `http(s)` images the HTML's `src`
    /// attributes name.
    package var assets: [URL]
    /// How long the block stays cached, for personalized content; nil keeps it until the next prefetch,
    /// identify or reset.
    package var timeToLive: Duration?
    /// The server's tracking consent for this block (`has_tracking_consent`); nil, as sent when the server
    /// says nothing, counts as consent.
    package var hasTrackingConsent: Bool?

    /// Creates a block.
    /// - Parameters:
    ///   - id: The block's id.
    ///   - name: The block's name.
    ///   - placeholders: The placeholder ids it may appear in.
    ///   - html: The HTML fragment to show.
    ///   - type: The block's type, `html` by default.
    ///   - priority: Higher shows first; 0 by default.
    ///   - frequency: How often it may be shown; ``ContentBlockFrequency/always`` by default.
    ///   - variant: The experiment variant, if any.
    ///   - version: The content version; 0 by default.
    ///   - assets: Extra assets to load before showing.
    ///   - timeToLive: How long personalized content stays cached.
    ///   - hasTrackingConsent: The server's tracking consent; nil counts as consent.
    public init(
        id: String,
        name: String,
        placeholders: [String],
        html: String,
        type: String = "html",
        priority: Int = 0,
        frequency: ContentBlockFrequency = .always,
        variant: ContentBlockVariant? = nil,
        version: Int = 0,
        assets: [URL] = [],
        timeToLive: Duration? = nil,
        hasTrackingConsent: Bool? = nil
    ) {
        self.id = id
        self.name = name
        self.placeholders = placeholders
        self.html = html
        self.type = type
        self.priority = priority
        self.frequency = frequency
        self.variant = variant
        self.version = version
        self.assets = assets
        self.timeToLive = timeToLive
        self.hasTrackingConsent = hasTrackingConsent
    }

    /// Whether events about this block may be tracked without forcing: true unless the server said no.
    var tracksWithConsent: Bool { hasTrackingConsent != false }

    /// `id "name"`.
    public var description: String { "\(id) \"\(name)\"" }
}

/// One variant of an experiment, reported with a block's events (Exponea's `variant_id` and `variant_name`).
public struct ContentBlockVariant: Sendable, Hashable, Codable {
    /// The variant's id.
    package var id: String
    /// The variant's name.
    package var name: String?

    /// Creates a variant.
    /// - Parameters:
    ///   - id: The variant's id.
    ///   - name: The variant's name.
    public init(id: String, name: String? = nil) {
        self.id = id
        self.name = name
    }
}

/// How often a content block may be shown, applied exactly as the names say.
///
/// Exponea's own content-block code checked `onlyOnce` per visit and `oncePerVisit` once ever; here each rule
/// does what its name says. History expires after `ContentBlockConfiguration.historyRetention`, except that an
/// `onlyOnce` block was shown, which is kept for good: it never comes back.
public enum ContentBlockFrequency: String, Sendable, Hashable, Codable, CaseIterable {
    /// Every time a placeholder asks.
    case always
    /// Only when it has never been shown before (on this installation, within the history's retention).
    case onlyOnce
    /// Only when it has not been shown yet in the current visit (the reporter's session).
    case oncePerVisit
    /// Until the visitor clicks it or closes it.
    case untilVisitorInteracts
}

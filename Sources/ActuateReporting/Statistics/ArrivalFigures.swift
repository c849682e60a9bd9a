/// How users arrived through links and activities, and which links are broken, from the `url_opened`,
/// `activity_continued` and `activity_published` events.
package struct ArrivalFigures: Sendable, Hashable, Codable {
    /// The most broken links listed; the rest are counted in ``brokenLinkOpens`` only.
    package static let maxBrokenLinks = 20

    /// `url_opened` events.
    package var urlOpens = 0
    /// URL opens by result (`performed`, `noMatch`, `badParameter`, `unavailable`, …).
    package var urlOpensByResult: [String: Int] = [:]
    /// URL opens whose result was `noMatch` or `badParameter`: links the app gave out, or was given, that lead
    /// nowhere.
    package var brokenLinkOpens = 0
    /// The most opened broken links, most opened first (then by URL), at most ``maxBrokenLinks``.
    package var brokenLinks: [BrokenLink] = []
    /// `activity_published` events.
    package var activitiesPublished = 0
    /// `activity_continued` events.
    package var activityContinuations = 0
    /// Activity continuations by result (`performed`, `noMatch`, `badInput`).
    package var activityContinuationsByResult: [String: Int] = [:]

    /// Creates figures with every count zero.
    init() {}
}

/// A link that was opened and led nowhere.
package struct BrokenLink: Sendable, Hashable, Codable {
    /// The URL without its query, as recorded.
    package var url: String
    /// `noMatch` or `badParameter` (the most recent, when it varied).
    package var result: String
    /// How many times it was opened.
    package var opens: Int

    /// Creates a broken link.
    ///
    /// - Parameters:
    ///   - url: The URL without its query.
    ///   - result: `noMatch` or `badParameter`.
    ///   - opens: How many times it was opened.
    init(url: String, result: String, opens: Int) {
        self.url = url
        self.result = result
        self.opens = opens
    }
}

/// How much of the timeline travels with a failed action's `error` event: the last entries of the action's
/// session, at most `maxEntries` of them and at most `maxBytes` of JSON.
///
/// The excerpt is opt-in: `ActionFailureReporter` attaches one only when given a policy.
public struct TimelineExcerptPolicy: Sendable, Hashable {
    /// The default number of entries: 20.
    @usableFromInline package static let defaultMaxEntries = 20
    /// The default byte cap: 8 KiB.
    @usableFromInline package static let defaultMaxBytes = 8 * 1024

    /// The most entries an excerpt holds; zero or less sends none.
    package var maxEntries: Int
    /// The most bytes the excerpt's JSON array (compact, UTF-8) may take. The newest entries are kept; the
    /// number of older entries left out for the cap is sent as `timelineOmitted`.
    package var maxBytes: Int

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - maxEntries: The most entries an excerpt holds: 20 by default.
    ///   - maxBytes: The most bytes the excerpt's JSON may take: 8 KiB by default.
    public init(
        maxEntries: Int = TimelineExcerptPolicy.defaultMaxEntries,
        maxBytes: Int = TimelineExcerptPolicy.defaultMaxBytes
    ) {
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
    }
}

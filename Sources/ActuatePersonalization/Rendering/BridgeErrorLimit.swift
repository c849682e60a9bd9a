/// Which of a page's refused bridge messages become `error` reports: the first of each page view, the rule the
/// tracker applies to every status of a content action (one of each per action and page view); the others are
/// only counted, so a page that posts a thousand bad messages gives one `error` event and a count of 999.
struct BridgeErrorLimit: Sendable, Hashable {
    /// The page view whose error was reported last.
    private var reportedPageView: String?
    /// The refused messages not reported because their page view had already reported one.
    private(set) var dropped = 0

    /// Whether a refused message of `pageView` (the token of the document that posted it) is reported; when it is
    /// not, it is counted in ``dropped``.
    mutating func admit(pageView: String) -> Bool {
        guard reportedPageView != pageView else {
            dropped += 1
            return false
        }
        reportedPageView = pageView
        return true
    }
}

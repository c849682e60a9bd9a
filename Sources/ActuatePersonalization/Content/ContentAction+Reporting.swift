import Actuate
import ActuateReporting
import Synchronization

/// Reporting what happened to the content, for apps that present it themselves, and rendering it onto an
/// ``HTMLSurface``, which reports by itself.
extension ContentAction {
    /// Reports that the content was shown. ``render(on:bridge:clickedCallback:)`` does this by itself.
    /// - Returns: Whether the report was sent, dropped as a duplicate, or not made for want of a tracker.
    @discardableResult
    public func reportExecuted() -> ContentReportResult {
        report(.executed)
    }

    /// Reports a click on the content's main target.
    /// - Returns: Whether the report was sent, dropped as a duplicate, or not made for want of a tracker.
    @discardableResult
    public func reportClick() -> ContentReportResult {
        report(.target())
    }

    /// Reports that the user closed the content, and hides it for `dontShowSessions` sessions, counting this one.
    ///
    /// Personyze's reference says of the count: "If provided, Personyze will not show (return from getResult())
    /// this action this number of sessions", and its tracker counts every closed action down by one at each new
    /// session, dropping it at zero. So the session the content is closed in is the first of the N:
    ///
    /// | `dontShowSessions` | hidden for |
    /// |---|---|
    /// | none, 0 or 1 | the rest of this session |
    /// | 2 | the rest of this session and the next one |
    /// | N | the rest of this session and the next N - 1 |
    ///
    /// The ``Tracker``'s sessions last 90 minutes from their start by default (see
    /// ``Tracker/defaultSessionPolicy``); ``Tracker/startNewSession()`` starts one at once.
    /// ``Tracker/hiddenSessionsRemaining(actionID:)`` tells how many sessions after the current one it stays
    /// hidden.
    ///
    /// The close hides the action at once, but its count reaches the tracker's file a few milliseconds after this
    /// method returns, written behind the caller; `await tracker.waitForWrites()` when it must be on disk (see
    /// ``Tracker``'s "Files and what a crash can lose").
    /// - Parameter dontShowSessions: The sessions not to show it, counting this one; negatives count as 0.
    /// - Returns: Whether the report was sent, dropped as a duplicate, or not made for want of a tracker.
    @discardableResult
    public func reportClose(dontShowSessions: Int = 0) -> ContentReportResult {
        report(.close(dontShowSessions: max(0, dontShowSessions)))
    }

    /// Reports a click on a product shown in the content.
    /// - Parameter productID: The product's id in the catalogue.
    /// - Returns: Whether the report was sent, dropped as a duplicate, invalid (an empty id), or not made for
    ///   want of a tracker.
    @discardableResult
    public func reportProductClick(productID: String) -> ContentReportResult {
        report(.product(productID: productID))
    }

    /// Reports a click on an article shown in the content.
    /// - Parameter articleID: The article's id.
    /// - Returns: Whether the report was sent, dropped as a duplicate, invalid (an empty id), or not made for
    ///   want of a tracker.
    @discardableResult
    public func reportArticleClick(articleID: String) -> ContentReportResult {
        report(.article(articleID: articleID))
    }

    /// Reports that presenting the content failed.
    /// - Parameter message: What went wrong.
    /// - Returns: Whether the report was sent, dropped as a duplicate, or not made for want of a tracker.
    @discardableResult
    public func reportError(message: String) -> ContentReportResult {
        report(.error(message: message))
    }

    private func report(_ event: ContentEvent) -> ContentReportResult {
        guard let tracker else { return .noTracker }
        return tracker.report(event, actionID: id, name: name)
    }

    /// Renders the content onto `surface` and reports what happens there.
    ///
    /// - `executed` is reported when the surface says the document has loaded, once per page view however
    ///   often the action is rendered; a failed load is reported as an `error`.
    /// - The document gets a fresh secret token, which its bridge puts in every message and the page's scripts
    ///   cannot read; a message without it was posted by a script of the page, not by the bridge, and is refused.
    /// - Each bridge message is checked (see ``ContentBridge``). A valid one becomes an ``ActionClicked``, is
    ///   reported through the tracker and handed to `clickedCallback`, which opens its link; without a
    ///   `clickedCallback`, a clicked link is reported to the tracker's `onError` as
    ///   ``TrackerError/linkNotOpened(href:reason:)``, since nothing opens it. Calling
    ///   ``Tracker/reportActionClicked(_:)`` again from the callback is harmless, as the duplicate is dropped.
    /// - A malformed or forged message, or one that arrives before the load finished, is reported as an `error`
    ///   event and otherwise ignored. Like every status, one error is recorded per action and page view; the
    ///   tracker counts the others in `Tracker.droppedErrorCount`, so a page that floods the bridge cannot flood
    ///   the event store.
    /// - Content that is not `text/html` is not loaded; an `error` is reported instead.
    ///
    /// - Parameters:
    ///   - surface: Where to show the document.
    ///   - bridge: The bridge's handler name and link policy.
    ///   - clickedCallback: Receives each valid click, on the thread the surface delivers messages on.
    public func render(
        on surface: any HTMLSurface,
        bridge: ContentBridge = .standard,
        clickedCallback: (@Sendable (ActionClicked) -> Void)? = nil
    ) {
        render(on: surface, bridge: bridge, router: nil, clickedCallback: clickedCallback)
    }

    /// Renders onto `surface` with `bridge`; a clicked link opens through `router` when it answers it (see
    /// ``render(on:system:clickedCallback:)``).
    func render(
        on surface: any HTMLSurface,
        bridge: ContentBridge,
        router: URLRouter?,
        clickedCallback: (@Sendable (ActionClicked) -> Void)?
    ) {
        let token = BridgeToken.random()
        guard let document = contentHtmlDoc(bridge: bridge, token: token) else {
            reportError(message: "Content of type \(contentType ?? "none") cannot be rendered as HTML.")
            return
        }
        let action = self
        let loaded = Atomic<Bool>(false)
        surface.load(
            html: document,
            bridgeName: bridge.handlerName,
            onMessage: { text in
                guard loaded.load(ordering: .acquiring) else {
                    action.reportError(message: BridgeMessageError.beforeLoad.description)
                    return
                }
                switch BridgeMessage.parse(text, actionID: action.id, bridge: bridge, token: token) {
                case .success(let clicked):
                    _ = action.tracker?.report(clicked, name: action.name)
                    clickedCallback?(clicked)
                    if !clicked.href.isEmpty {
                        action.open(clicked.href, router: router, appTakesClicks: clickedCallback != nil)
                    }
                case .failure(let problem):
                    action.reportError(message: problem.description)
                }
            },
            completion: { result in
                switch result {
                case .loaded:
                    loaded.store(true, ordering: .releasing)
                    action.reportExecuted()
                case .failed(let message):
                    action.reportError(message: "The content did not load: \(message)")
                }
            }
        )
    }
}

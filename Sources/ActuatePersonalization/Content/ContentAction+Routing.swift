import Actuate
import Foundation

/// Rendering content wired through an app's ``ActuateSystem``, so that its deep links reach the app's router.
extension ContentAction {
    /// Renders the content onto `surface` for an app whose links its `system` routes.
    ///
    /// It behaves as ``render(on:bridge:clickedCallback:)`` with ``ContentBridge/init(routes:handlerName:maximumHrefLength:maximumArgumentLength:maximumMessageBytes:)``
    /// built from `system.router.configuration`, so links in the app's own schemes (`shop://product/p1`) are
    /// reported besides `http(s)`, `mailto` and `tel`; then each clicked link:
    /// - opens through the system's router, in its main session, when the router answers its scheme or
    ///   universal-link host;
    /// - is left to `clickedCallback` otherwise (a web page, `mailto:`, `tel:`).
    ///
    /// A link the router answers but cannot route (no route matches, a bad parameter, an unavailable feature), or
    /// that nothing takes (the router does not answer it and there is no `clickedCallback`), is reported to the
    /// tracker's `onError` and `lastError` as ``TrackerError/linkNotOpened(href:reason:)``. The routing counts as
    /// a report in flight, so ``Tracker/waitForReports()`` returns once the routed action has completed.
    ///
    /// ```swift
    /// action.render(on: webView, system: system) { clicked in
    ///     if clicked.status == .close { hideBanner() }
    /// }
    /// ```
    /// - Parameters:
    ///   - surface: Where to show the document.
    ///   - system: The app's system, whose router opens the content's links.
    ///   - clickedCallback: Receives each valid click, on the thread the surface delivers messages on.
    public func render(
        on surface: any HTMLSurface,
        system: ActuateSystem,
        clickedCallback: (@Sendable (ActionClicked) -> Void)? = nil
    ) {
        render(
            on: surface,
            bridge: ContentBridge(routes: system.router.configuration),
            router: system.router,
            clickedCallback: clickedCallback
        )
    }

    /// Opens `href`, a link the user clicked and the bridge allowed: through `router` when it answers it;
    /// otherwise it is the app's when `appTakesClicks`. Reports what nothing opens to the tracker.
    func open(_ href: String, router: URLRouter?, appTakesClicks: Bool) {
        guard let url = URL(string: href) else {
            diagnose(href, "it is not a URL")
            return
        }
        guard let router else {
            if !appTakesClicks { diagnose(href, "no router is wired and no clickedCallback takes the click") }
            return
        }
        let inFlight = tracker?.inFlight
        inFlight?.begin()
        Task {
            defer { inFlight?.end() }
            let result = await router.open(url: url)
            switch result {
            case .performed:
                break
            case .unsupportedScope:
                if !appTakesClicks {
                    diagnose(
                        href,
                        "the router does not answer its scheme or host and no clickedCallback takes the click"
                    )
                }
            default:
                diagnose(href, "the router could not open it (\(result))")
            }
        }
    }

    private func diagnose(_ href: String, _ reason: String) {
        tracker?.handle(.linkNotOpened(href: href, reason: reason))
    }
}

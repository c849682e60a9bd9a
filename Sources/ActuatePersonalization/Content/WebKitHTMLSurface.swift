// WKWebView exists on macOS, iOS and visionOS; tvOS and watchOS have no web view (`.ci/apple-only`).
#if canImport(WebKit) && (os(macOS) || os(iOS) || os(visionOS))
import Dispatch
import Foundation
import WebKit

/// An ``HTMLSurface`` that shows content in a `WKWebView`.
///
/// It registers the bridge's message handler on the view's user content controller (replacing the one of the
/// previous load), refuses every navigation except the document it loads, refuses every new window, measures
/// the content's height once loaded, and delivers bridge messages from the most recent load only. A load that
/// is replaced before it finishes completes with ``HTMLSurfaceLoadResult/failed(message:)``.
///
/// <!-- readme: apple-only (WebKit) -->
/// ```swift
/// let surface = WebKitHTMLSurface(webView: bannerView)
/// action.render(on: surface) { clicked in
///     if clicked.status == .close { bannerView.isHidden = true }
/// }
/// ```
///
/// The surface becomes the view's navigation and UI delegate; do not add another message handler with the
/// bridge's name to the same user content controller. It is a thin adapter: the load rules are those of
/// `HTMLSurfaceLoads`, which is tested on every platform.
@MainActor
public final class WebKitHTMLSurface: NSObject, HTMLSurface {

    /// The view the content is shown in.
    public let webView: WKWebView
    private var loads = HTMLSurfaceLoads()
    private var handlerName: String?

    /// Creates a surface over `webView` and becomes its navigation and UI delegate.
    /// - Parameter webView: The view to show content in.
    public init(webView: WKWebView) {
        self.webView = webView
        super.init()
        webView.navigationDelegate = self
        webView.uiDelegate = self
    }

    /// Loads `html` on the main queue; see ``HTMLSurface/load(html:bridgeName:onMessage:completion:)``.
    /// - Parameters:
    ///   - html: The whole document.
    ///   - bridgeName: The message handler name the page posts to.
    ///   - onMessage: Receives each string the page posts; a body that is not a string arrives as "".
    ///   - completion: Called once, when the document has loaded or failed to load.
    public nonisolated func load(
        html: String,
        bridgeName: String,
        onMessage: @escaping @Sendable (String) -> Void,
        completion: @escaping @Sendable (HTMLSurfaceLoadResult) -> Void
    ) {
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                self.start(html: html, bridgeName: bridgeName, onMessage: onMessage, completion: completion)
            }
        }
    }

    private func start(
        html: String,
        bridgeName: String,
        onMessage: @escaping @Sendable (String) -> Void,
        completion: @escaping @Sendable (HTMLSurfaceLoadResult) -> Void
    ) {
        let (generation, replaced) = loads.start(onMessage: onMessage, completion: completion)
        replaced?(.failed(message: "Replaced by a new load before it finished."))
        let controller = webView.configuration.userContentController
        if let handlerName { controller.removeScriptMessageHandler(forName: handlerName) }
        controller.add(BridgeMessageRelay(surface: self, generation: generation), name: bridgeName)
        handlerName = bridgeName
        webView.loadHTMLString(html, baseURL: nil)
    }

    fileprivate func deliver(_ text: String, generation: Int) {
        loads.receiver(forGeneration: generation)?(text)
    }

    private func finish(_ result: HTMLSurfaceLoadResult) {
        loads.finish()?(result)
    }
}

extension WebKitHTMLSurface: WKNavigationDelegate {
    /// Allows the document being loaded, once, and refuses every other navigation.
    public func webView(
        _ webView: WKWebView,
        decidePolicyFor navigationAction: WKNavigationAction
    ) async -> WKNavigationActionPolicy {
        let allowed = loads.allowsNavigation(
            to: navigationAction.request.url?.absoluteString,
            isMainFrame: navigationAction.targetFrame?.isMainFrame ?? false
        )
        return allowed ? .allow : .cancel
    }

    /// Reports the load, with the content's measured size.
    public func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) {
        let width = Double(webView.bounds.width)
        let expected = loads.generation
        webView.evaluateJavaScript("document.documentElement.scrollHeight") { [weak self] value, _ in
            MainActor.assumeIsolated {
                guard let self, self.loads.isCurrent(expected) else { return }
                let height = (value as? NSNumber)?.doubleValue
                self.finish(.loaded(size: height.map { HTMLContentSize(width: width, height: $0) }))
            }
        }
    }

    /// Reports a failed load.
    public func webView(_ webView: WKWebView, didFail navigation: WKNavigation!, withError error: any Error) {
        finish(.failed(message: error.localizedDescription))
    }

    /// Reports a load that failed before it started.
    public func webView(
        _ webView: WKWebView,
        didFailProvisionalNavigation navigation: WKNavigation!,
        withError error: any Error
    ) {
        finish(.failed(message: error.localizedDescription))
    }
}

extension WebKitHTMLSurface: WKUIDelegate {
    /// Refuses every new window (`window.open`, `target="_blank"`).
    public func webView(
        _ webView: WKWebView,
        createWebViewWith configuration: WKWebViewConfiguration,
        for navigationAction: WKNavigationAction,
        windowFeatures: WKWindowFeatures
    ) -> WKWebView? {
        nil
    }
}

/// Relays one load's bridge messages to the surface, holding it weakly so the user content controller, which
/// retains its handlers, does not keep the surface alive.
@MainActor
private final class BridgeMessageRelay: NSObject, WKScriptMessageHandler {
    private weak var surface: WebKitHTMLSurface?
    private let generation: Int

    init(surface: WebKitHTMLSurface, generation: Int) {
        self.surface = surface
        self.generation = generation
    }

    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
        surface?.deliver(message.body as? String ?? "", generation: generation)
    }
}
#endif

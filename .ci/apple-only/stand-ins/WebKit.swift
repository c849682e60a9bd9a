// Stand-in for Apple's WebKit: the declarations `WebKitHTMLSurface.swift` uses, in the shapes of the real ones
// (main-actor classes; the delegates' optional methods as the protocols' extensions). WebKit's web view exists on
// macOS, iOS and visionOS only. Type-checked against on Linux by `.ci/apple-only`; never linked.
import Foundation

/// A web view: macOS 10.10, iOS 8, visionOS 1.
@MainActor
open class WKWebView: NSObject {
    public init(frame: CGRect, configuration: WKWebViewConfiguration) {
        self.configuration = configuration
        self.bounds = frame
    }
    public let configuration: WKWebViewConfiguration
    open var bounds: CGRect
    open weak var navigationDelegate: (any WKNavigationDelegate)?
    open weak var uiDelegate: (any WKUIDelegate)?
    @discardableResult
    open func loadHTMLString(_ string: String, baseURL: URL?) -> WKNavigation? { nil }
    open func evaluateJavaScript(
        _ javaScriptString: String,
        completionHandler: (@MainActor @Sendable (Any?, (any Error)?) -> Void)? = nil
    ) {}
}

/// A web view's configuration.
@MainActor
open class WKWebViewConfiguration: NSObject {
    open var userContentController = WKUserContentController()
}

/// The scripts and message handlers of a web view.
@MainActor
open class WKUserContentController: NSObject {
    open func add(_ scriptMessageHandler: any WKScriptMessageHandler, name: String) {}
    open func removeScriptMessageHandler(forName name: String) {}
}

/// Receives the messages a page posts to `window.webkit.messageHandlers[name]`.
@MainActor
public protocol WKScriptMessageHandler: NSObjectProtocol {
    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage)
}

/// A message a page posted.
@MainActor
open class WKScriptMessage: NSObject {
    open var body: Any { fatalError("stand-in") }
    open var name: String { fatalError("stand-in") }
}

/// A navigation the web view reports.
@MainActor
open class WKNavigation: NSObject {}

/// A navigation the web view asks about.
@MainActor
open class WKNavigationAction: NSObject {
    open var request: URLRequest { fatalError("stand-in") }
    open var targetFrame: WKFrameInfo? { nil }
}

/// A frame of a page.
@MainActor
open class WKFrameInfo: NSObject {
    open var isMainFrame: Bool { true }
}

/// Whether to allow a navigation.
public enum WKNavigationActionPolicy: Int, Sendable {
    case cancel = 0
    case allow = 1
}

/// The features of a window a page asks to open.
@MainActor
open class WKWindowFeatures: NSObject {}

/// Hears a web view's navigations; every method is optional.
@MainActor
public protocol WKNavigationDelegate: NSObjectProtocol {}

/// Hears a web view's requests for UI; every method is optional.
@MainActor
public protocol WKUIDelegate: NSObjectProtocol {}

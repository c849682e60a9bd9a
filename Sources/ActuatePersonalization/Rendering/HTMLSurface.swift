import Foundation

/// Something that can show an HTML document and pass on the messages its bridge script posts.
///
/// Content actions and content blocks render through this protocol, so the same code drives a `WKWebView` on
/// Apple platforms, a WebKitGTK view, or a test double. The page's bridge script posts each message as a JSON
/// string through `window.webkit.messageHandlers.<bridgeName>.postMessage(...)`, the API that WKWebView and
/// WebKitGTK share; the surface hands that string to `onMessage` unchanged.
///
/// Implementation requirements:
/// - Call `completion` exactly once per ``load(html:bridgeName:onMessage:completion:)``: with
///   ``HTMLSurfaceLoadResult/loaded(size:)`` once the document (and what it needs to show) has loaded, or with
///   ``HTMLSurfaceLoadResult/failed(message:)``.
/// - Deliver messages only for the most recent load; a new load replaces the previous document.
/// - Never let the page navigate away from the loaded document.
public protocol HTMLSurface: AnyObject, Sendable {
    /// Loads a complete HTML document.
    ///
    /// - Parameters:
    ///   - html: The whole document, as ``ContentAction/contentHtmlDoc`` or a content block produces it.
    ///   - bridgeName: The name of the message handler the page posts to.
    ///   - onMessage: Receives each message body the page posts, as the JSON string it posted.
    ///   - completion: Called once, when the document has loaded or failed to load.
    func load(
        html: String,
        bridgeName: String,
        onMessage: @escaping @Sendable (String) -> Void,
        completion: @escaping @Sendable (HTMLSurfaceLoadResult) -> Void
    )
}

/// How loading a document into an ``HTMLSurface`` ended.
public enum HTMLSurfaceLoadResult: Sendable, Hashable {
    /// The document loaded; `size` is its measured content size in points, when the surface can measure it.
    case loaded(size: HTMLContentSize?)
    /// The document could not be loaded.
    case failed(message: String)
}

/// The measured size of loaded HTML content, in points.
public struct HTMLContentSize: Sendable, Hashable {
    /// The content's width.
    public var width: Double
    /// The content's height.
    public var height: Double

    /// Creates a size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

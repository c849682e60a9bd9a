import ActuatePersonalization
import Foundation
import Synchronization

/// An `HTMLSurface` that behaves like a browser for tests and terminal demos: it keeps the documents content
/// actions and content blocks load into it, and clicking an element makes it post what the document's bridge
/// script would post for that click, with the document's secret token, read from the document as the bridge
/// script holds it.
///
/// ```swift
/// let surface = SimulatedHTMLSurface()
/// action.render(on: surface) { clicked in print(clicked.status) }
/// try surface.clickLink(text: "See the sale")   // {"status":"target","href":"https://…","arg":"","token":"…"}
/// try surface.close()                           // the element marked data-actuate-close
/// print(surface.links.map(\.href), surface.text)
/// ```
///
/// It reads the document as a browser would, without running its scripts: the bridge script must be the
/// document's first script, and holds the token (`var token = "…";`) and the handler name the page posts to.
/// A click goes to the element the test names and is reported as the bridge reports a click the user made on
/// it (the nearest marked ancestor wins, a content action's disallowed links become an empty `href`, an element
/// that reports nothing posts nothing). Links resolve as absolute URLs only, as in a page loaded without a base
/// URL; what the page's own scripts would do is not simulated, so test hostile pages in a real engine.
///
/// It never navigates, as `WebKitHTMLSurface` refuses every navigation but its own document's load: a click on a
/// link posts what the bridge posts and the document stays the one loaded; only a new
/// ``load(html:bridgeName:onMessage:completion:)`` changes it.
///
/// Every load finishes at once with `loadResult`, unless it is nil: then each load waits for ``finishLoad(_:)``.
/// Messages are handed to the app synchronously, on the caller's thread, for the most recent load only.
public final class SimulatedHTMLSurface: HTMLSurface {
    /// A link of the loaded document: an `<a href>` or `<area href>`.
    public struct Link: Sendable, Hashable {
        /// The element's `id`, if it has one.
        package var id: String?
        /// Its text, each run of white space one space, trimmed.
        public var text: String
        /// Its `href` attribute, as written.
        public var href: String

        /// Creates a link, for comparing with ``SimulatedHTMLSurface/links``.
        /// - Parameters:
        ///   - id: The element's id.
        ///   - text: Its text.
        ///   - href: Its `href` attribute.
        init(id: String?, text: String, href: String) {
            self.id = id
            self.text = text
            self.href = href
        }
    }

    /// Why a simulated click could not be made; the public clicks throw it untyped, and its description says why.
    package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// Nothing has been loaded yet.
        case nothingLoaded
        /// The latest load has not finished, so the bridge would not be listening yet.
        case notLoaded
        /// The document has no bridge script with a token as its first script.
        case noBridge
        /// No element has this `id`.
        case noElement(id: String)
        /// No link has this text.
        case noLink(text: String)
        /// No element is marked `data-actuate-close`.
        case noCloseElement

        package var description: String {
            switch self {
            case .nothingLoaded: "nothing has been loaded into the surface"
            case .notLoaded: "the latest document has not finished loading; call finishLoad(_:) first"
            case .noBridge: "the document's first script is not a bridge script with a token"
            case .noElement(let id): "the document has no element with id \"\(id)\""
            case .noLink(let text): "the document has no link whose text is \"\(text)\""
            case .noCloseElement: "the document has no element marked data-actuate-close"
            }
        }
    }

    private struct Load {
        var html: String
        var bridgeName: String
        var document: SimulatedDocument
        var onMessage: @Sendable (String) -> Void
        var completion: (@Sendable (HTMLSurfaceLoadResult) -> Void)?
    }

    private let loadResult: HTMLSurfaceLoadResult?
    private let onLoad: (@Sendable (SimulatedHTMLSurface) -> Void)?
    private let loads = Mutex<[Load]>([])

    /// Creates a surface.
    /// - Parameters:
    ///   - loadResult: How every load finishes, at once; nil to finish each with ``finishLoad(_:)``.
    ///   - onLoad: Called with the surface after each document is taken in and before its load finishes, for
    ///     printing ``text``, say.
    public init(
        loadResult: HTMLSurfaceLoadResult? = .loaded(size: HTMLContentSize(width: 320, height: 120)),
        onLoad: (@Sendable (SimulatedHTMLSurface) -> Void)? = nil
    ) {
        self.loadResult = loadResult
        self.onLoad = onLoad
    }

    public func load(
        html: String,
        bridgeName: String,
        onMessage: @escaping @Sendable (String) -> Void,
        completion: @escaping @Sendable (HTMLSurfaceLoadResult) -> Void
    ) {
        let load = Load(
            html: html,
            bridgeName: bridgeName,
            document: SimulatedDocument(parsing: html),
            onMessage: onMessage,
            completion: completion
        )
        loads.withLock { $0.append(load) }
        onLoad?(self)
        if let loadResult { finishLoad(loadResult) }
    }

    /// Finishes the latest load with `result`, if it has not finished.
    /// - Parameter result: How it ends.
    public func finishLoad(_ result: HTMLSurfaceLoadResult = .loaded(size: HTMLContentSize(width: 320, height: 120))) {
        let completion = loads.withLock { loads -> (@Sendable (HTMLSurfaceLoadResult) -> Void)? in
            guard let last = loads.indices.last else { return nil }
            defer { loads[last].completion = nil }
            return loads[last].completion
        }
        completion?(result)
    }

    // MARK: What was loaded

    /// Every document loaded, oldest first.
    package var documents: [String] { loads.withLock { $0.map(\.html) } }

    /// The latest document, or nil before the first load.
    public var document: String? { loads.withLock { $0.last?.html } }

    /// The handler name the app gave with the latest load.
    package var bridgeName: String? { loads.withLock { $0.last?.bridgeName } }

    /// The text of the latest document's body, each run of white space one space.
    public var text: String {
        Self.collapsed(loads.withLock { $0.last?.document.text(of: "body") } ?? "")
    }

    /// The links of the latest document, in document order.
    public var links: [Link] {
        let document = loads.withLock { $0.last?.document }
        return document?.elements.compactMap { element in
            guard element.tag == "a" || element.tag == "area", let href = element.attributes["href"] else {
                return nil
            }
            return Link(id: element.attributes["id"], text: Self.collapsed(element.text), href: href)
        } ?? []
    }

    /// The token the latest document's bridge script carries, read from the document's text; nil when it has
    /// none.
    var bridgeToken: String? {
        loads.withLock { $0.last }.flatMap { SimulatedBridge(reading: $0.document)?.token }
    }

    // MARK: Clicking

    /// Clicks the element whose `id` is `id`, as a user would, and hands the app what the bridge posts for it.
    /// - Parameter id: The element's id.
    /// - Returns: The message posted, or nil when the bridge reports nothing for a click there.
    /// - Throws: An error whose description says why, when nothing is loaded, the load has not finished, there is no
    ///   bridge or no such element.
    @discardableResult
    public func click(id: String) throws -> String? {
        try click { document throws(Failure) in
            guard let element = document.element(withID: id) else { throw .noElement(id: id) }
            return element
        }
    }

    /// Clicks the first link whose text (white space collapsed and trimmed) is `text`.
    /// - Parameter text: The link's text.
    /// - Returns: The message posted, or nil when the bridge reports nothing for the click.
    /// - Throws: An error whose description says why, when nothing is loaded, the load has not finished, there is no
    ///   bridge or no such link.
    @discardableResult
    public func clickLink(text: String) throws -> String? {
        let wanted = Self.collapsed(text)
        return try click { document throws(Failure) in
            let link = document.elements.firstIndex { element in
                (element.tag == "a" || element.tag == "area") && element.has("href")
                    && Self.collapsed(element.text) == wanted
            }
            guard let link else { throw .noLink(text: text) }
            return link
        }
    }

    /// Clicks the first element marked `data-actuate-close`.
    /// - Returns: The message posted.
    /// - Throws: An error whose description says why, when nothing is loaded, the load has not finished, there is no
    ///   bridge or no close element.
    @discardableResult
    public func close() throws -> String? {
        try click { document throws(Failure) in
            guard let element = document.elements.firstIndex(where: { $0.has("data-actuate-close") }) else {
                throw .noCloseElement
            }
            return element
        }
    }

    /// Posts `message` from the latest page as it is, as a script of the page posts through
    /// `window.webkit.messageHandlers` itself: without the token, unless the message carries one.
    /// - Parameter message: The posted string.
    package func post(_ message: String) {
        loads.withLock { $0.last?.onMessage }?(message)
    }

    private func click(_ find: (SimulatedDocument) throws(Failure) -> Int) throws(Failure) -> String? {
        guard let load = loads.withLock({ $0.last }) else { throw .nothingLoaded }
        if load.completion != nil { throw .notLoaded }
        guard let bridge = SimulatedBridge(reading: load.document) else { throw .noBridge }
        let element = try find(load.document)
        guard let message = bridge.message(forClickOn: element, in: load.document) else { return nil }
        load.onMessage(message)
        return message
    }

    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}

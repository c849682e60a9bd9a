import Synchronization

@testable import ActuatePersonalization

/// An ``HTMLSurface`` for tests: records every load, and lets the test finish loads and post bridge messages
/// by hand, as a page would.
final class RecordingHTMLSurface: HTMLSurface {
    struct Load: Sendable {
        var html: String
        var bridgeName: String
        var onMessage: @Sendable (String) -> Void
        var completion: @Sendable (HTMLSurfaceLoadResult) -> Void
    }

    private let loads = Mutex<[Load]>([])

    func load(
        html: String,
        bridgeName: String,
        onMessage: @escaping @Sendable (String) -> Void,
        completion: @escaping @Sendable (HTMLSurfaceLoadResult) -> Void
    ) {
        loads.withLock {
            $0.append(Load(html: html, bridgeName: bridgeName, onMessage: onMessage, completion: completion))
        }
    }

    /// Every document loaded so far, oldest first.
    var loadedDocuments: [String] { loads.withLock { $0.map(\.html) } }

    /// Finishes the most recent load with `result`.
    func finishLoad(_ result: HTMLSurfaceLoadResult = .loaded(size: HTMLContentSize(width: 320, height: 120))) {
        loads.withLock { $0.last }?.completion(result)
    }

    /// Posts `message` from the most recently loaded page, as it is: a message a script of the page posts itself.
    func post(_ message: String) {
        loads.withLock { $0.last }?.onMessage(message)
    }

    /// Posts `message`, a JSON object's text, from the most recently loaded page as its bridge script would: with
    /// the page's token.
    func postFromBridge(_ message: String) {
        post(BridgeTokenReader.signed(message, token: latestToken))
    }

    /// The token of the most recently loaded document, read from its bridge script.
    var latestToken: String? {
        loadedDocuments.last.flatMap(BridgeTokenReader.token(in:))
    }
}

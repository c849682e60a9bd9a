import Synchronization

@testable import ActuatePersonalization

/// A content action rendered with `render(on:)` onto a ``RecordingHTMLSurface``, for the browser-engine suites:
/// the engine runs the very document the render loaded, token included, and what the engine posted is then
/// replayed into that render, as a real surface would deliver it.
final class RenderedContentAction: Sendable {
    let fixture = TrackerFixture()
    let surface = RecordingHTMLSurface()
    let action: ContentAction
    private let recordedClicks = Mutex<[ActionClicked]>([])

    /// Renders `content` as the action with `id` and `name`, attached to the fixture's tracker.
    init(id: Int, name: String, content: String) {
        action = ContentAction(id: id, name: name, contentType: "text/html", content: content, tracker: fixture.tracker)
        action.render(on: surface) { [weak self] clicked in self?.recordedClicks.withLock { $0.append(clicked) } }
    }

    /// The document the render loaded.
    var document: String { surface.loadedDocuments.last ?? "" }

    /// The token of that document, read from its bridge script.
    var token: String { surface.latestToken ?? "" }

    /// The clicks the render handed to its callback, in order.
    var clicks: [ActionClicked] { recordedClicks.withLock { $0 } }

    /// Runs the document in the engine, clicking `clicks` by element id.
    func run(clicking clicks: [String]) async -> Result<BrowserEngine.Report, any Error> {
        await BrowserEngine.runIfAvailable(html: document, handler: ContentBridge.standard.handlerName, clicks: clicks)
    }

    /// Hands the render what the engine posted, in order: the messages posted while loading, then the end of the
    /// load, then each click's messages and those posted after the last click.
    func replay(_ report: BrowserEngine.Report) {
        for message in report.loadMessages { surface.post(message.delivered) }
        surface.finishLoad()
        for click in report.clicks {
            for message in click.messages { surface.post(message.delivered) }
        }
        for message in report.lateMessages { surface.post(message.delivered) }
    }
}

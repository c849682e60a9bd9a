@testable import ActuatePersonalization

/// A content block shown by a placeholder on an ``InstantHTMLSurface``, for the browser-engine suite: the engine
/// runs the very document the placeholder presented, token included, and what the engine posted is then handed to
/// that placeholder, as a real surface would deliver it.
final class PresentedContentBlock: Sendable {
    let fixture = ContentBlockFixture()
    let surface = InstantHTMLSurface()
    let manager: ContentBlockManager
    let placeholder: ContentBlockPlaceholder
    let callback: RecordingContentBlockCallback

    private init(_ block: ContentBlock) {
        manager = fixture.makeManager(ScriptedContentBlockSource([block]))
        (placeholder, callback) = manager.deferredPlaceholder(surface: surface)
    }

    /// Shows `block` in placeholder `home` and returns once the placeholder has presented it.
    static func showing(_ block: ContentBlock) async -> PresentedContentBlock {
        let presented = PresentedContentBlock(block)
        await presented.placeholder.reloadAndWait(presented.manager)
        return presented
    }

    /// The document the placeholder presented.
    var document: String { surface.documents.last ?? "" }

    /// The token of that document, read from its bridge script.
    var token: String { surface.latestToken ?? "" }

    /// Runs the document in the engine, clicking `clicks` by element id.
    func run(clicking clicks: [String]) async -> Result<BrowserEngine.Report, any Error> {
        await BrowserEngine.runIfAvailable(html: document, handler: "actuateContentBlock", clicks: clicks)
    }
}

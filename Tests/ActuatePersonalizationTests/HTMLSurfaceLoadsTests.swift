import Synchronization
import Testing

@testable import ActuatePersonalization

/// The load rules of `WebKitHTMLSurface`, kept apart from WebKit so that they are tested on every platform.
@Suite("HTMLSurfaceLoads")
struct HTMLSurfaceLoadsTests {
    /// What the callbacks of the loads received.
    final class Received: Sendable {
        let values = Mutex<[String]>([])
        func append(_ value: String) { values.withLock { $0.append(value) } }
        var all: [String] { values.withLock { $0 } }
    }

    @Test("only the current load's document, in the main frame, and only once, may be navigated to")
    func navigation() {
        var loads = HTMLSurfaceLoads()
        let beforeAnyLoad = loads.allowsNavigation(to: "about:blank", isMainFrame: true)
        _ = loads.start(onMessage: { _ in }, completion: { _ in })
        let elsewhere = loads.allowsNavigation(to: "https://evil.example/", isMainFrame: true)
        let inAFrame = loads.allowsNavigation(to: "about:blank", isMainFrame: false)
        let document = loads.allowsNavigation(to: "about:blank", isMainFrame: true)
        let documentAgain = loads.allowsNavigation(to: "about:blank", isMainFrame: true)
        _ = loads.start(onMessage: { _ in }, completion: { _ in })
        let nextDocument = loads.allowsNavigation(to: "about:blank", isMainFrame: true)
        #expect(!beforeAnyLoad, "nothing is loading yet")
        #expect(!elsewhere)
        #expect(!inAFrame, "a frame's about:blank")
        #expect(document)
        #expect(!documentAgain, "the document is allowed once")
        #expect(nextDocument, "a new load's document")
    }

    @Test("messages of a replaced load go nowhere; a replaced load completes once, as failed by the surface")
    func replacement() {
        let received = Received()
        var loads = HTMLSurfaceLoads()
        let first = loads.start(
            onMessage: { received.append("first: \($0)") },
            completion: { received.append("first \($0)") }
        )
        #expect(first.generation == 1 && first.replaced == nil)
        loads.receiver(forGeneration: 1)?("click")
        let second = loads.start(
            onMessage: { received.append("second: \($0)") },
            completion: { _ in received.append("second done") }
        )
        #expect(second.generation == 2)
        second.replaced?(.failed(message: "Replaced by a new load before it finished."))
        #expect(loads.receiver(forGeneration: 1) == nil)
        loads.receiver(forGeneration: 2)?("close")
        #expect(loads.isCurrent(2) && !loads.isCurrent(1))
        loads.finish()?(.loaded(size: nil))
        let again = loads.finish()
        #expect(again == nil, "a load completes once")
        #expect(
            received.all == [
                "first: click", "first failed(message: \"Replaced by a new load before it finished.\")",
                "second: close",
                "second done",
            ]
        )
    }
}

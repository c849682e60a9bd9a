import ActuatePersonalization
import Foundation
import Testing

// A callback with no methods of its own, and one written against the old spellings only (OldSpellingCallback, in
// Support/). The compiler warns about both (they rely on the deprecated defaults), so their conformances are marked
// deprecated and the tests reach them by a dynamic cast: the test target still compiles without warnings.
struct SilentCallback {}

@available(*, deprecated, message: "a callback with no methods of its own relies on the deprecated defaults")
extension SilentCallback: ContentBlockCallback {}

@Suite("Content block callbacks")
struct ContentBlockCallbackTests {
    /// Makes every call a placeholder makes on its behaviour callback.
    static func callEverything(on callback: any ContentBlockCallback) {
        let block = ContentBlock(id: "welcome", name: "Welcome", placeholders: ["home"], html: "<p>Welcome</p>")
        callback.onMessageShown(placeholderID: "home", contentBlock: block)
        callback.onNoMessageFound(placeholderID: "home")
        callback.onError(placeholderID: "home", contentBlock: block, errorMessage: "failed")
        callback.onError(placeholderID: "home", contentBlock: nil, errorMessage: "not loaded")
        callback.onCloseClicked(placeholderID: "home", contentBlock: block)
        callback.onLinkClicked(placeholderID: "home", contentBlock: block, link: ContentBlockLink(url: "shop://sale"))
    }

    @Test("a callback with no methods of its own survives every callback (it once recursed until the stack overflowed)")
    func silentCallbackDoesNotRecurse() async {
        await #expect(processExitsWith: .success) {
            let conforming: Any = SilentCallback()
            guard let callback = conforming as? any ContentBlockCallback else { exit(2) }
            ContentBlockCallbackTests.callEverything(on: callback)
        }
    }

    @Test("a callback written against the old spellings gets each call once, through the new methods' defaults")
    func oldSpellingsGetEachCallOnce() throws {
        let recorder = OldSpellingCallback()
        let conforming: Any = recorder
        let callback = try #require(conforming as? any ContentBlockCallback)
        Self.callEverything(on: callback)
        #expect(
            recorder.calls.withLock { $0 } == [
                "shown home", "none home", "error home: failed", "error home: not loaded", "closed home",
                "clicked home: shop://sale",
            ]
        )
    }
}

import ActuatePersonalization
import Synchronization

// Written against the old spellings on purpose, so .ci/names/rename.py leaves this file alone (OLD_SPELLING_FIXTURES):
// ContentBlockCallbackTests checks that such a callback still gets each call once.

/// A callback that implements only the old spellings, and records each call.
final class OldSpellingCallback: Sendable {
    let calls = Mutex<[String]>([])
}

@available(*, deprecated, message: "a callback written against the old spellings relies on the deprecated defaults")
extension OldSpellingCallback: ContentBlockCallback {
    func onMessageShown(placeholderId: String, contentBlock: ContentBlock) {
        calls.withLock { $0.append("shown \(placeholderId)") }
    }
    func onNoMessageFound(placeholderId: String) {
        calls.withLock { $0.append("none \(placeholderId)") }
    }
    func onError(placeholderId: String, contentBlock: ContentBlock?, errorMessage: String) {
        calls.withLock { $0.append("error \(placeholderId): \(errorMessage)") }
    }
    func onCloseClicked(placeholderId: String, contentBlock: ContentBlock) {
        calls.withLock { $0.append("closed \(placeholderId)") }
    }
    func onActionClicked(placeholderId: String, contentBlock: ContentBlock, action: ContentBlockLink) {
        calls.withLock { $0.append("clicked \(placeholderId): \(action.url)") }
    }
}

import ActuateReporting
import ActuateTestSupport
import ActuateTesting
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins

// A stress test for content blocks, written to give the Thread Sanitizer races to find: several threads reload
// placeholders, ask for the placeholders of table rows, identify the user and reset the reporter at once, while
// the source answers from other threads. The blocks depend on who they are for, so a load started for one user
// that landed in the cache after the cache was cleared for the next would show up at the end. Every wait is
// bounded.

@Suite("Content blocks under stress")
struct ContentBlockStressTests {
    private static let placeholderIDs = ["home", "cart", "search", "profile"]
    private static let rounds = 40

    @Test("reloads, row placeholders, identify and reset from several threads leave every placeholder consistent")
    func reloadsIdentifyAndResetFromSeveralThreads() async throws {
        let fixture = ContentBlockFixture()
        let callbackKey = DispatchSpecificKey<Bool>()
        fixture.callbackQueue.setSpecific(key: callbackKey, value: true)
        let source = PerUserContentBlockSource()
        let manager = fixture.makeManager(source)
        manager.prefetchPlaceholders(ids: Self.placeholderIDs)
        let surfaces = Self.placeholderIDs.map { _ in InstantHTMLSurface() }
        let placeholders = zip(Self.placeholderIDs, surfaces).map { id, surface in
            ContentBlockPlaceholder(placeholderID: id, deferredLoad: true, manager: manager, surface: surface)
        }
        let callbacks = placeholders.map { placeholder in
            QueueCheckingCallback(
                recording: RecordingContentBlockCallback.install(on: placeholder),
                callbackKey: callbackKey
            )
        }
        for (placeholder, callback) in zip(placeholders, callbacks) { placeholder.behaviourCallback = callback }
        // Rows have placeholders of their own, so their shows can be told apart from the four above.
        let rows = (0..<8).map { ContentBlockRow(placeholderID: "list-\($0 % 2)", rowID: "row-\($0)") }
        let rowPlaceholders = Mutex<[ContentBlockRow: [ObjectIdentifier]]>([:])
        let resets = DispatchGroup()

        let finished = await onOwnThread { () -> Bool in
            DispatchQueue.concurrentPerform(iterations: 6) { thread in
                for round in 0..<Self.rounds {
                    switch thread {
                    case 0, 1:
                        placeholders[(thread + round) % placeholders.count].reload()
                    case 2:
                        try? manager.identify(userID: "user-\(round % 3)")
                    case 3:
                        if round % 8 == 0 {
                            resets.enter()
                            Task {
                                await manager.reporter.reset()
                                resets.leave()
                            }
                        }
                        manager.prefetchPlaceholders(ids: [Self.placeholderIDs[round % 4]])
                    default:
                        let row = rows[(thread + round) % rows.count]
                        let placeholder = manager.preparePlaceholder(for: row, surface: InstantHTMLSurface())
                        rowPlaceholders.withLock { $0[row, default: []].append(ObjectIdentifier(placeholder)) }
                        _ = manager.usedContentBlock(for: row)
                    }
                }
            }
            // A hang detector, not a timing check: under the sanitizers, with the whole suite running beside it
            // on two cores, the resets' tasks have waited more than a minute for the cooperative pool.
            return resets.wait(timeout: .now() + .seconds(300)) == .success
        }
        try #require(finished, "a reset did not finish within five minutes (a hang)")
        try await withBoundedWait("the content-block manager") { await manager.waitUntilIdle() }

        // The last identity wins, even when an answer for an earlier one arrives after it: the source holds the
        // answers for a `stale` user and then the `final` one, and gives the newest first.
        source.hold()
        try manager.identify(userID: "stale")
        try #require(await source.waitForHeldAnswers(1), "the prefetch for the stale user never reached the source")
        try manager.identify(userID: "final")
        try #require(await source.waitForHeldAnswers(2), "the prefetch for the final user never reached the source")
        source.releaseNewestFirst()
        try await withBoundedWait("the content-block manager") { await manager.waitUntilIdle() }
        for placeholder in placeholders { placeholder.reload() }
        try await withBoundedWait("the content-block manager") { await manager.waitUntilIdle() }

        for (placeholder, callback) in zip(placeholders, callbacks) {
            let id = placeholder.placeholderID
            #expect(
                placeholder.contentBlock?.id == "\(id)-final",
                "\(id) shows \(String(describing: placeholder.contentBlock?.id))"
            )
            #expect(callback.recording.readyValues.last == true)
            // No placeholder was ever told about another placeholder's block.
            for call in callback.recording.calls {
                switch call {
                case .shown(let shownIn, let blockID):
                    #expect(shownIn == id && blockID.hasPrefix("\(id)-"), "\(call)")
                case .error(let placeholderID, _, let message):
                    Issue.record("\(placeholderID): unexpected error \(message)")
                default: break
                }
            }
        }
        #expect(callbacks.allSatisfy { $0.offQueue == 0 }, "callbacks ran off the callback queue")
        #expect(source.requestsOnMainThread == 0)
        #expect(source.requests > 0)
        #expect(manager.lastError == nil)

        // Each row had one placeholder, whichever thread asked first.
        for (row, identifiers) in rowPlaceholders.withLock({ $0 }) {
            #expect(Set(identifiers).count == 1, "\(row) got \(Set(identifiers).count) placeholders")
        }
        // Every show the callbacks of the four placeholders heard was tracked exactly once.
        let shown = callbacks.flatMap(\.recording.calls).compactMap { call -> String? in
            if case .shown(_, let blockID) = call { blockID } else { nil }
        }
        let tracked = try fixture.blockEvents().filter { event in
            event.type == "executed"
                && Self.placeholderIDs.contains(event.properties[ContentBlockEventKey.placeholder]?.stringValue ?? "")
        }
        #expect(tracked.count == shown.count)
        let trackedBlocks = tracked.compactMap { $0.properties[ReportEventKey.actionID]?.stringValue }
        #expect(trackedBlocks.sorted() == shown.sorted())
        // Every row shows its own placeholder's block.
        for row in rows {
            let used = manager.usedContentBlock(for: row)?.contentBlock.id
            #expect(
                used.map { $0.hasPrefix("\(row.placeholderID)-") } ?? true,
                "\(row) shows \(String(describing: used))"
            )
        }
    }
}

/// Serves, for each placeholder, one block whose id names the placeholder and the user it is for
/// (`home-user-1`, or `home-anonymous`), answering from a global queue, or holding answers until the test releases
/// them.
private final class PerUserContentBlockSource: ContentBlockSource {
    private struct State {
        var requests = 0
        var onMainThread = 0
        var holding = false
        var held: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())
    private let answerHeld = DispatchSemaphore(value: 0)

    var requests: Int { state.withLock { $0.requests } }
    var requestsOnMainThread: Int { state.withLock { $0.onMainThread } }

    /// Holds every answer from now on until ``releaseNewestFirst()``.
    func hold() {
        state.withLock { $0.holding = true }
    }

    /// Waits, on a thread of its own and for at most a minute, until `count` answers are held.
    func waitForHeldAnswers(_ count: Int) async -> Bool {
        await onOwnThread {
            while self.state.withLock({ $0.held.count }) < count {
                guard self.answerHeld.wait(timeout: .now() + .seconds(60)) == .success else { return false }
            }
            return true
        }
    }

    /// Stops holding and gives the held answers, the newest first.
    func releaseNewestFirst() {
        let held = state.withLock { state in
            defer {
                state.held = []
                state.holding = false
            }
            return state.held
        }
        for answer in held.reversed() { answer() }
    }

    func loadBlocks(placeholderIDs: [String], identity: StoredIdentity) async throws -> [ContentBlock] {
        let onMainThread = Thread.isMainThread
        let user = identity.userID ?? "anonymous"
        let blocks = placeholderIDs.map { ContentBlock.test("\($0)-\(user)", placeholders: [$0]) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let answer: @Sendable () -> Void = { continuation.resume() }
            let holding = state.withLock { state -> Bool in
                state.requests += 1
                if onMainThread { state.onMainThread += 1 }
                if state.holding { state.held.append(answer) }
                return state.holding
            }
            if holding {
                answerHeld.signal()
            } else {
                DispatchQueue.global().async(execute: answer)
            }
        }
        return blocks
    }
}

/// Counts callbacks that arrive off the callback queue, then passes them to the recording callback.
private final class QueueCheckingCallback: ContentBlockCallback {
    let recording: RecordingContentBlockCallback
    private let callbackKey: DispatchSpecificKey<Bool>
    private let offQueueCount = Atomic<Int>(0)

    init(recording: RecordingContentBlockCallback, callbackKey: DispatchSpecificKey<Bool>) {
        self.recording = recording
        self.callbackKey = callbackKey
    }

    var offQueue: Int { offQueueCount.load(ordering: .relaxed) }

    private func check() {
        if DispatchQueue.getSpecific(key: callbackKey) != true { offQueueCount.add(1, ordering: .relaxed) }
    }

    func onMessageShown(placeholderID: String, contentBlock: ContentBlock) {
        check()
        recording.onMessageShown(placeholderID: placeholderID, contentBlock: contentBlock)
    }

    func onNoMessageFound(placeholderID: String) {
        check()
        recording.onNoMessageFound(placeholderID: placeholderID)
    }

    func onError(placeholderID: String, contentBlock: ContentBlock?, errorMessage: String) {
        check()
        recording.onError(placeholderID: placeholderID, contentBlock: contentBlock, errorMessage: errorMessage)
    }

    func onCloseClicked(placeholderID: String, contentBlock: ContentBlock) {
        check()
        recording.onCloseClicked(placeholderID: placeholderID, contentBlock: contentBlock)
    }

    func onLinkClicked(placeholderID: String, contentBlock: ContentBlock, link: ContentBlockLink) {
        check()
        recording.onLinkClicked(placeholderID: placeholderID, contentBlock: contentBlock, link: link)
    }
}

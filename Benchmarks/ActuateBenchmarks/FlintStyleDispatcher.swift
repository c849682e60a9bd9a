import Dispatch
import Foundation
import Synchronization

/// A dispatcher built the way Flint's documentation describes its own, to measure Actuate against in the same
/// process: a new queue and `DispatchSpecificKey` per dispatch, a blocking `sync` hop onto the action's queue,
/// observers kept in a locked array and told asynchronously on their own queue, and a completion object with a
/// locked flag. Written here from that description; no Flint code is used.
final class FlintStyleDispatcher: @unchecked Sendable {
    // @unchecked Sendable: `observers` is only read or written while `observersLock` is held.
    private let observersLock = NSLock()
    private var observers: [any FlintStyleObserver] = []
    private let observerQueue = DispatchQueue(label: "flint-style.observers")
    private let actionQueue: DispatchQueue
    private let actionQueueKey = DispatchSpecificKey<Bool>()
    private let nextID = Atomic<UInt64>(0)

    /// Creates a dispatcher whose actions run on `actionQueue`.
    init(actionQueue: DispatchQueue) {
        self.actionQueue = actionQueue
        actionQueue.setSpecific(key: actionQueueKey, value: true)
    }

    func add(observer: any FlintStyleObserver) {
        observersLock.lock()
        observers.append(observer)
        observersLock.unlock()
    }

    /// Performs `body` as Flint would: per-dispatch queue and key, a blocking hop, asynchronous observers.
    func perform(
        actionName: String,
        body: (FlintStyleCompletion) -> Void,
        completion: @escaping @Sendable (Bool) -> Void
    ) {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).newValue
        // Flint creates a queue and a specific key for every dispatch to find out where it is running.
        let dispatchQueue = DispatchQueue(label: "flint-style.dispatch.\(id)")
        let dispatchKey = DispatchSpecificKey<UInt64>()
        dispatchQueue.setSpecific(key: dispatchKey, value: id)
        let request = FlintStyleRequest(id: id, actionName: actionName, date: Date())
        observersLock.lock()
        let current = observers
        observersLock.unlock()
        observerQueue.async { for observer in current { observer.actionWillBegin(request) } }
        let requirement = FlintStyleCompletion { success in
            let end = Date()
            self.observerQueue.async {
                for observer in current { observer.actionDidComplete(request, success: success, at: end) }
            }
            completion(success)
        }
        if DispatchQueue.getSpecific(key: actionQueueKey) == true {
            body(requirement)
        } else {
            actionQueue.sync { body(requirement) }
        }
        _ = dispatchQueue.getSpecific(key: dispatchKey)
    }

    /// Waits until the observers have heard about every dispatch so far, so a round counts their work.
    func drainObservers() {
        observerQueue.sync {}
    }
}

/// A request as a Flint-style observer sees it.
struct FlintStyleRequest: Sendable {
    var id: UInt64
    var actionName: String
    var date: Date
}

/// An observer of a ``FlintStyleDispatcher``.
protocol FlintStyleObserver: Sendable {
    func actionWillBegin(_ request: FlintStyleRequest)
    func actionDidComplete(_ request: FlintStyleRequest, success: Bool, at date: Date)
}

/// The completion object: a flag behind a lock so that completing twice is caught.
final class FlintStyleCompletion: @unchecked Sendable {
    // @unchecked Sendable: `completed` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var completed = false
    private let onComplete: @Sendable (Bool) -> Void

    init(onComplete: @escaping @Sendable (Bool) -> Void) {
        self.onComplete = onComplete
    }

    func complete(success: Bool) {
        lock.lock()
        let first = !completed
        completed = true
        lock.unlock()
        if first { onComplete(success) }
    }
}

/// A Flint-style timeline: entries in a locked array, evicting the oldest with `remove(at: 0)`.
final class FlintStyleTimeline: FlintStyleObserver, @unchecked Sendable {
    // @unchecked Sendable: `entries` is only read or written while `lock` is held.
    private struct Entry {
        var id: UInt64
        var actionName: String
        var date: Date
        var duration: TimeInterval?
        var success: Bool?
    }

    private let lock = NSLock()
    private var entries: [Entry] = []
    private let maxEntries: Int

    init(maxEntries: Int) {
        self.maxEntries = maxEntries
    }

    func actionWillBegin(_ request: FlintStyleRequest) {
        lock.lock()
        entries.append(Entry(id: request.id, actionName: request.actionName, date: request.date))
        if entries.count > maxEntries { entries.remove(at: 0) }
        lock.unlock()
    }

    func actionDidComplete(_ request: FlintStyleRequest, success: Bool, at date: Date) {
        lock.lock()
        if let index = entries.lastIndex(where: { $0.id == request.id }) {
            entries[index].duration = date.timeIntervalSince(request.date)
            entries[index].success = success
        }
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }
}

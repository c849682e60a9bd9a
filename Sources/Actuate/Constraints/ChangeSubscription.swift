import Synchronization

/// A registration for change notifications; cancelling it, or releasing it, stops them.
public final class ChangeSubscription: Sendable {
    private let onCancel: Mutex<(@Sendable () -> Void)?>

    /// Creates a subscription that runs `cancel` once, when cancelled or released.
    public init(cancel: @escaping @Sendable () -> Void) {
        self.onCancel = Mutex(cancel)
    }

    /// Stops the notifications. Calling it again has no effect.
    public func cancel() {
        let handler = onCancel.withLock { handler -> (@Sendable () -> Void)? in
            defer { handler = nil }
            return handler
        }
        handler?()
    }

    deinit {
        cancel()
    }
}

/// A list of change handlers that sources of constraints share: add, remove, and notify outside the lock.
///
/// Public so that app-specific sources (a permissions checker backed by the system, a store validator) can
/// notify the same way the in-memory ones do.
final class ChangeHandlers<Key: Sendable>: Sendable {
    private struct State {
        var nextID: UInt64 = 0
        var handlers: [UInt64: @Sendable (Key) -> Void] = [:]
    }

    private let state = Mutex(State())

    /// Creates an empty list.
    init() {}

    /// Adds a handler.
    ///
    /// - Parameter handler: Called with the key that changed, on the thread that made the change.
    /// - Returns: The subscription that removes the handler.
    func add(_ handler: @escaping @Sendable (Key) -> Void) -> ChangeSubscription {
        let id = state.withLock { state -> UInt64 in
            defer { state.nextID += 1 }
            state.handlers[state.nextID] = handler
            return state.nextID
        }
        return ChangeSubscription { [weak self] in
            _ = self?.state.withLock { $0.handlers.removeValue(forKey: id) }
        }
    }

    /// Calls every handler with `key`, outside the lock, in the order they were added.
    func notify(_ key: Key) {
        let handlers = state.withLock { $0.handlers.sorted { $0.key < $1.key }.map(\.value) }
        for handler in handlers { handler(key) }
    }
}

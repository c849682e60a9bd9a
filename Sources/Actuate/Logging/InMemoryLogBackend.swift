import Synchronization

/// A backend that keeps every event in memory, for tests and for apps that show logs on screen.
///
/// It keeps everything it is given; for a bounded history use `FocusLogging.recentEvents()`.
final class InMemoryLogBackend: LogBackend {
    private let recorded = Mutex<[LogEvent]>([])

    /// Creates an empty backend.
    init() {}

    func write(_ event: LogEvent) {
        recorded.withLock { $0.append(event) }
    }

    /// Every event written so far, in order.
    var events: [LogEvent] { recorded.withLock { $0 } }

    /// The messages written so far, in order.
    var messages: [String] { events.map(\.message) }

    /// Forgets what was written.
    func removeAll() {
        recorded.withLock { $0.removeAll() }
    }
}

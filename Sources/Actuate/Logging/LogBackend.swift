/// Where `FocusLogging` writes the events its filters let through.
///
/// Backends are called on the thread that logged, so one that does slow I/O hands the event to its own
/// queue. Combine several with ``MultiplexLogBackend``.
public protocol LogBackend: Sendable {
    /// Writes one event.
    ///
    /// - Parameter event: The event.
    func write(_ event: LogEvent)
}

/// A backend that writes every event to several backends, in order: the one place where logging fans out.
///
/// ```swift
/// let logging = FocusLogging(backend: MultiplexLogBackend([PrintLogBackend(), AppLogFile()]))
/// ```
public struct MultiplexLogBackend: LogBackend {
    /// The backends, in the order they receive events.
    public let backends: [any LogBackend]

    /// Creates a backend that fans events out to `backends`.
    ///
    /// - Parameter backends: The backends, in the order they receive events.
    public init(_ backends: [any LogBackend]) {
        self.backends = backends
    }

    /// Writes `event` to each backend, in order.
    ///
    /// - Parameter event: The event.
    public func write(_ event: LogEvent) {
        for backend in backends { backend.write(event) }
    }
}

/// A backend that discards every event; `FocusLogging` still keeps them in its recent events.
package struct NoOpLogBackend: LogBackend {
    /// Creates the backend.
    package init() {}

    package func write(_ event: LogEvent) {}
}

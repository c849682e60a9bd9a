import Actuate

/// The server notes are synced to: a dependency, so that tests never reach a real one.
public protocol NotesServer: Sendable {
    /// Uploads `notes` and returns how many the server holds afterwards.
    func upload(_ notes: [Note]) async throws -> Int
}

/// A stand-in server that answers after `latency` on the scheduler it is given: the app's live one for now, and
/// on a test's `TestScheduler` the answer comes when the test advances virtual time.
public struct SimulatedNotesServer: NotesServer {
    private let scheduler: any ActuateScheduler
    private let latency: Duration

    /// Creates a server that answers after `latency` on `scheduler`.
    public init(scheduler: any ActuateScheduler, latency: Duration = .milliseconds(50)) {
        self.scheduler = scheduler
        self.latency = latency
    }

    public func upload(_ notes: [Note]) async throws -> Int {
        try await scheduler.sleep(for: latency)  // cancellable: throws CancellationError
        return notes.count
    }
}

/// The server the sync action uploads to.
public enum NotesServerKey: DependencyKey {
    public static var liveValue: any NotesServer { SimulatedNotesServer(scheduler: SystemScheduler.shared) }
}

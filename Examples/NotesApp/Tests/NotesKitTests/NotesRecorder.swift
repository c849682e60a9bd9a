import ActuateTesting
import NotesKit
import Testing

/// A mock presenter: records its calls as values the tests compare.
final class NotesRecorder: NotesPresenter {
    enum Call: Equatable, Sendable {
        case show(Note)
        case removed(Int)
        case synced(Int)
    }

    let calls = Calls<Call>()
    func show(_ note: Note) { calls.record(.show(note)) }
    func removed(id: Int) { calls.record(.removed(id)) }
    func synced(count: Int) { calls.record(.synced(count)) }
}

extension ActionTestHarness {
    /// A harness whose notes actions read `store` and a server answering on its own virtual clock.
    static func notes(_ store: InMemoryNotesStore = InMemoryNotesStore()) -> ActionTestHarness {
        let harness = ActionTestHarness()
        harness.dependencies[NotesStoreKey.self] = store
        harness.dependencies[NotesServerKey.self] = SimulatedNotesServer(scheduler: harness.scheduler)
        return harness
    }
}

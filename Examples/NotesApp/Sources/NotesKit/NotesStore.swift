import Actuate
import Synchronization

/// Where notes are kept: a dependency the actions read from their context.
public protocol NotesStore: Sendable {
    /// Adds a note with `text` and returns it.
    func create(text: String) -> Note
    /// Removes the note with `id`; false when there was none.
    func delete(id: Int) -> Bool
    /// The note with `id`, if there is one.
    func note(id: Int) -> Note?
    /// Every note, oldest first.
    func all() -> [Note]
}

/// Notes in memory, for the app's first version and for tests: each test makes its own.
public final class InMemoryNotesStore: NotesStore {
    private let state = Mutex<(nextID: Int, notes: [Note])>((1, []))

    /// Creates an empty store.
    public init() {}

    public func create(text: String) -> Note {
        state.withLock { state in
            let note = Note(id: state.nextID, text: text)
            state.nextID += 1
            state.notes.append(note)
            return note
        }
    }

    public func delete(id: Int) -> Bool {
        state.withLock { state in
            guard let index = state.notes.firstIndex(where: { $0.id == id }) else { return false }
            state.notes.remove(at: index)
            return true
        }
    }

    public func note(id: Int) -> Note? {
        state.withLock { $0.notes.first { $0.id == id } }
    }

    public func all() -> [Note] {
        state.withLock { $0.notes }
    }
}

/// The notes store the actions use. The app sets it on its system's configuration; a test sets its own on its
/// harness, and a harness whose test set none fails the test by this key's name.
public enum NotesStoreKey: DependencyKey {
    public static var liveValue: any NotesStore { InMemoryNotesStore() }
}

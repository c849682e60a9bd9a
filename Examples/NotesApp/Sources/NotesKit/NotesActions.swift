import Actuate

/// What the notes actions show: the UI, never a dependency.
public protocol NotesPresenter: Sendable {
    /// Shows a note that was created or opened.
    func show(_ note: Note)
    /// Shows that the note with `id` was deleted.
    func removed(id: Int)
    /// Shows that the sync finished with `count` notes on the server.
    func synced(count: Int)
}

/// Creates a note with the text it is given.
public final class CreateNoteAction: Action {
    public typealias InputType = String
    public typealias PresenterType = any NotesPresenter

    public static var analyticsID: String? { "note_created" }

    public static func perform(
        context: ActionContext<String>,
        presenter: any NotesPresenter,
        completion: Completion
    )
        -> Completion.Status
    {
        guard !context.input.isEmpty else { return completion.completedSync(.failure(error: NotesError.emptyText)) }
        do {
            presenter.show(try context.dependency(NotesStoreKey.self).create(text: context.input))
            return completion.completedSync(.success)
        } catch {
            return completion.completedSync(.failure(error: error))
        }
    }
}

/// Deletes the note with the id it is given.
public final class DeleteNoteAction: Action {
    public typealias InputType = Int
    public typealias PresenterType = any NotesPresenter

    public static var analyticsID: String? { "note_deleted" }

    public static func perform(
        context: ActionContext<Int>,
        presenter: any NotesPresenter,
        completion: Completion
    )
        -> Completion.Status
    {
        do {
            guard try context.dependency(NotesStoreKey.self).delete(id: context.input) else {
                return completion.completedSync(.failure(error: NotesError.noSuchNote(id: String(context.input))))
            }
            presenter.removed(id: context.input)
            return completion.completedSync(.success)
        } catch {
            return completion.completedSync(.failure(error: error))
        }
    }
}

/// Opens a note: the target of `notes://note/$(id)`.
public final class OpenNoteAction: Action {
    public typealias InputType = String
    public typealias PresenterType = any NotesPresenter

    public static func perform(
        context: ActionContext<String>,
        presenter: any NotesPresenter,
        completion: Completion
    )
        -> Completion.Status
    {
        do {
            let store = try context.dependency(NotesStoreKey.self)
            guard let id = Int(context.input), let note = store.note(id: id) else {
                return completion.completedSync(.failure(error: NotesError.noSuchNote(id: context.input)))
            }
            presenter.show(note)
            return completion.completedSync(.success)
        } catch {
            return completion.completedSync(.failure(error: error))
        }
    }
}

/// Uploads every note to the server and shows how many it holds: an async action, cancelled with the task that
/// awaits it.
public final class SyncNotesAction: AsyncAction {
    public typealias PresenterType = any NotesPresenter

    public static var analyticsID: String? { "notes_synced" }

    public static func perform(
        context: ActionContext<NoInput>,
        presenter: any NotesPresenter
    ) async throws
        -> ActionPerformOutcome
    {
        let notes = try context.dependency(NotesStoreKey.self).all()
        let count = try await context.dependency(NotesServerKey.self).upload(notes)
        presenter.synced(count: count)
        return .success
    }
}

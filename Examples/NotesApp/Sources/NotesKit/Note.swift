import Actuate

/// A note: its id and its text.
public struct Note: Sendable, Hashable, Loggable {
    /// The note's id, unique in its store.
    public let id: Int
    /// What the note says.
    public var text: String

    /// Creates a note.
    public init(id: Int, text: String) {
        self.id = id
        self.text = text
    }

    /// The id only: a note's text may be private, and this is what timelines and logs show.
    public var loggingDescription: String { "note \(id)" }
}

/// Why a notes action failed.
public enum NotesError: Error, Sendable, Equatable, Loggable {
    /// No note has this id.
    case noSuchNote(id: String)
    /// A note's text is empty.
    case emptyText

    public var loggingDescription: String {
        switch self {
        case .noSuchNote(let id): "there is no note \(id)"
        case .emptyText: "a note needs some text"
        }
    }
}

import Foundation
import Synchronization

/// `open-session.json` in a ``FileEventStore``'s directory: the record of the reporting session open now,
/// rewritten in place (one positional write, no sync) when the session or its ids change and at most once a second
/// otherwise, so the next launch can end it.
///
/// The JSON is padded with spaces to at least ``minimumLength`` bytes and to the longest record written, so a
/// shorter record fully replaces a longer one without truncating. A torn or damaged file reads as no record:
/// the worst a crash mid-write costs is one `session_end` not recorded.
final class OpenSessionFile: Sendable {
    static let fileName = "open-session.json"
    static let minimumLength = 512

    private struct State {
        var descriptor: Int32?
        var length = 0
        var isClosed = false
    }

    private let path: String
    private let state = Mutex(State())

    init(directory: String) {
        path = (directory as NSString).appendingPathComponent(Self.fileName)
    }

    deinit {
        close()
    }

    func load() -> OpenSessionRecord? {
        state.withLock { state -> OpenSessionRecord? in
            guard let descriptor = try? open(&state), let bytes = try? POSIXFile.readAll(descriptor, path: path)
            else { return nil }
            state.length = max(state.length, bytes.count)
            return try? JSONDecoder().decode(OpenSessionRecord.self, from: Data(bytes))
        }
    }

    func save(_ record: OpenSessionRecord?) {
        var bytes = record.flatMap { try? JSONEncoder().encode($0) }.map { [UInt8]($0) } ?? []
        state.withLock { state in
            guard !state.isClosed, let descriptor = try? open(&state) else { return }
            let length = max(bytes.count, state.length, Self.minimumLength)
            bytes += repeatElement(UInt8(ascii: " "), count: length - bytes.count)
            guard (try? POSIXFile.write(bytes, to: descriptor, at: 0, path: path)) != nil else { return }
            state.length = length
        }
    }

    /// Closes the file; later saves do nothing.
    func close() {
        state.withLock { state in
            if let descriptor = state.descriptor { _ = Foundation.close(descriptor) }
            state.descriptor = nil
            state.isClosed = true
        }
    }

    private func open(_ state: inout State) throws -> Int32 {
        if let descriptor = state.descriptor { return descriptor }
        let descriptor = try POSIXFile.open(path, create: true)
        state.descriptor = descriptor
        return descriptor
    }
}

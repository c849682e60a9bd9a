import Actuate
import Foundation
import Synchronization

/// The tracker's files: its state (sessions, suppression, pending commands, profile) and its cached result,
/// each a JSON file replaced atomically and readable by its owner only (0600, see ``OwnerOnlyFile``).
///
/// A file that cannot be parsed is moved aside as `<name>.corrupt` (never deleted) and reported; the tracker
/// then starts from empty state for that file. Writes are ordered by generation: a snapshot older than the
/// one already written is skipped. The tracker calls the writing methods on its writer queue only (see
/// ``WriteBehind``); reading happens once, in the tracker's initialiser.
final class TrackerStorage: Sendable {
    private struct Written {
        var state: UInt64 = 0
        var result: UInt64 = 0
    }

    let directory: URL
    /// Made once: building a URL costs more than deciding that nothing needs writing.
    let stateURL: URL
    let resultURL: URL
    private let written = Mutex(Written())

    init(directory: URL) {
        self.directory = directory
        stateURL = directory.appendingPathComponent("tracker-state.json")
        resultURL = directory.appendingPathComponent("tracker-result.json")
    }

    /// Reads both files; missing files are not problems.
    func load() -> (saved: TrackerState.Saved?, result: TrackerResult?, problems: [TrackerError]) {
        var problems: [TrackerError] = []
        let saved = read(TrackerState.Saved.self, from: stateURL, problems: &problems)
        let result = read(TrackerResult.self, from: resultURL, problems: &problems)
        return (saved, result, problems)
    }

    /// Writes the state snapshot of `generation` unless a newer one was written.
    func save(_ saved: TrackerState.Saved, generation: UInt64) -> TrackerError? {
        write(saved, to: stateURL, generation: generation, slot: \.state)
    }

    /// Writes the result of `generation` unless a newer one was written; nil removes the file.
    func save(_ result: TrackerResult?, generation: UInt64) -> TrackerError? {
        guard let result else {
            return written.withLock { written -> TrackerError? in
                guard generation > written.result else { return nil }
                written.result = generation
                do {
                    if FileManager.default.fileExists(atPath: resultURL.path) {
                        try FileManager.default.removeItem(at: resultURL)
                    }
                    return nil
                } catch {
                    return .storageFailed(path: resultURL.path, reason: String(describing: error))
                }
            }
        }
        return write(result, to: resultURL, generation: generation, slot: \.result)
    }

    private func write<Value: Encodable>(
        _ value: Value,
        to url: URL,
        generation: UInt64,
        slot: WritableKeyPath<Written, UInt64>
    ) -> TrackerError? {
        guard written.withLock({ generation > $0[keyPath: slot] }) else { return nil }
        let data: Data
        do {
            data = try JSONEncoder().encode(value)
        } catch {
            return .storageFailed(path: url.path, reason: "encoding failed: \(error)")
        }
        return written.withLock { written -> TrackerError? in
            guard generation > written[keyPath: slot] else { return nil }
            do {
                try OwnerOnlyFile.write(data, to: url)
                written[keyPath: slot] = generation
                return nil
            } catch {
                return .storageFailed(path: url.path, reason: String(describing: error))
            }
        }
    }

    private func read<Value: Decodable>(_ type: Value.Type, from url: URL, problems: inout [TrackerError]) -> Value? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            let data = try Data(contentsOf: url)
            return try JSONDecoder().decode(type, from: data)
        } catch {
            let aside = url.appendingPathExtension("corrupt")
            try? FileManager.default.removeItem(at: aside)
            let moved = (try? FileManager.default.moveItem(at: url, to: aside)) != nil
            let note = moved ? "; moved aside to \(aside.lastPathComponent)" : ""
            problems.append(.storageFailed(path: url.path, reason: "unreadable (\(error))\(note)"))
            return nil
        }
    }
}

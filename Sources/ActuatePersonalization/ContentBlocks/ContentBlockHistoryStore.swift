import Actuate
import Foundation

/// Keeps a ``ContentBlockHistory`` in `content-block-history.json` in a directory, so frequency rules hold
/// across launches.
///
/// Writes replace the file atomically, readable by its owner only (0600, see ``OwnerOnlyFile``). A file that cannot
/// be parsed is moved aside to `content-block-history.json.corrupt` (never deleted) and the history starts empty.
/// The engine reads and writes it on the configuration's work queue only, never on the caller's queue.
struct ContentBlockHistoryStore: Sendable {
    static let fileName = "content-block-history.json"

    private struct File: Codable {
        var version: Int
        var blocks: [String: ContentBlockHistory.Record]
    }

    let directory: URL

    var fileURL: URL { directory.appendingPathComponent(Self.fileName) }

    /// Reads the history; a missing file is an empty history.
    /// - Returns: The history, and the problem found when the file had to be set aside.
    func load() -> (ContentBlockHistory, ContentBlockError?) {
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch {
            if !FileManager.default.fileExists(atPath: fileURL.path) { return (ContentBlockHistory(), nil) }
            return (ContentBlockHistory(), .historyFailed(path: fileURL.path, reason: error.localizedDescription))
        }
        do {
            let file = try Self.decoder.decode(File.self, from: data)
            guard file.version == 1 else {
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSDebugDescriptionErrorKey: "unknown version"])
            }
            return (ContentBlockHistory(records: file.blocks), nil)
        } catch {
            let aside = fileURL.appendingPathExtension("corrupt")
            try? FileManager.default.removeItem(at: aside)
            try? FileManager.default.moveItem(at: fileURL, to: aside)
            let reason = "the file is not a readable history (\(error)); it was moved to \(aside.lastPathComponent)"
            return (ContentBlockHistory(), .historyFailed(path: fileURL.path, reason: reason))
        }
    }

    /// Replaces the file with `history`.
    /// - Throws: ``ContentBlockError/historyFailed(path:reason:)`` when it cannot be written.
    func save(_ history: ContentBlockHistory) throws(ContentBlockError) {
        do {
            let data = try Self.encoder.encode(File(version: 1, blocks: history.records))
            try OwnerOnlyFile.write(data, to: fileURL)
        } catch let error as OwnerOnlyFile.WriteError {
            throw .historyFailed(path: fileURL.path, reason: error.description)
        } catch {
            throw .historyFailed(path: fileURL.path, reason: error.localizedDescription)
        }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}

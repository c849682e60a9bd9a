import Foundation
import Synchronization

/// Gathers every registered ``DebugReportable`` into one JSON document and one readable text, and writes
/// them to a directory, to attach to a bug report.
///
/// Its date comes from the clock of the dispatcher it belongs to, like every date in its sections.
///
/// ```swift
/// let report = DebugReport(reportables: [timeline], dispatcher: dispatcher)
/// let files = try report.write(to: URL(filePath: "/tmp/session-dump"))
/// ```
public final class DebugReport: Sendable {
    /// The version of the JSON format this version of Actuate writes: `formatVersion` at the top of every
    /// debug report and timeline dump. ``DebugReportDecoder`` reads it.
    public static let formatVersion = 1

    private let reportables = Mutex<[any DebugReportable]>([])
    private let clock: any ActuateScheduler

    /// Creates a report.
    /// - Parameters:
    ///   - reportables: The sections to gather.
    ///   - dispatcher: The dispatcher whose actions the report describes, and whose clock dates it; the shared
    ///     one by default.
    public init(reportables: [any DebugReportable] = [], dispatcher: ActionDispatcher = .shared) {
        self.reportables.withLock { $0 = reportables }
        self.clock = dispatcher.scheduler
    }

    /// Adds a section.
    public func register(_ reportable: any DebugReportable) {
        reportables.withLock { $0.append(reportable) }
    }

    /// The registered sections, in report order (the timeline first).
    package var sections: [any DebugReportable] {
        reportables.withLock { $0 }.enumerated()
            .sorted { ($0.element.debugReportOrder, $0.offset) < ($1.element.debugReportOrder, $1.offset) }
            .map(\.element)
    }

    /// An encoder that writes JSON as the debug report's own sections do: dates in ISO 8601, UTC, with six
    /// fractional digits, and sorted keys. Sections of your own (see ``DebugReportable``) use it so that every
    /// date in the document has one format.
    ///
    /// - Returns: A new encoder.
    public static func makeJSONEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ReportDate.string(from: date))
        }
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }

    /// The whole report as one JSON object in format 1: `formatVersion`, `generatedAt`, `sections` (the
    /// section names in order) and one key per section. ``DebugReportDecoder`` reads it.
    ///
    /// - Returns: The JSON document.
    /// - Throws: An error from a section that could not encode itself.
    public func jsonData() throws -> Data {
        var document: [String: Any] = [
            "formatVersion": Self.formatVersion,
            "generatedAt": ReportDate.string(from: clock.now()),
        ]
        var order: [String] = []
        for section in sections {
            let data = try section.debugReportJSON()
            document[section.debugReportSectionName] = try JSONSerialization.jsonObject(
                with: data,
                options: [.fragmentsAllowed]
            )
            order.append(section.debugReportSectionName)
        }
        document["sections"] = order
        return try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
    }

    /// The whole report as readable text, one titled section after another.
    public func text() -> String {
        var text = "Actuate debug report, \(clock.now().formatted(.iso8601))\n"
        for section in sections {
            let title = section.debugReportSectionName
            text += "\n== \(title) " + String(repeating: "=", count: max(3, 60 - title.count)) + "\n"
            text += section.debugReportText()
        }
        return text
    }

    /// Writes `debug-report.json` and `debug-report.txt` into `directory`.
    ///
    /// - Parameter directory: An existing, writable directory.
    /// - Returns: The two files written.
    /// - Throws: `DebugReportError` when the directory is missing or a file cannot be written.
    @discardableResult
    public func write(to directory: URL) throws -> DebugReportFiles {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) else {
            throw DebugReportError.directoryMissing(path: directory.path)
        }
        guard isDirectory.boolValue else { throw DebugReportError.notADirectory(path: directory.path) }
        let files = DebugReportFiles(
            json: directory.appendingPathComponent("debug-report.json"),
            text: directory.appendingPathComponent("debug-report.txt")
        )
        let json = try jsonData()
        let text = Data(text().utf8)
        for (data, url) in [(json, files.json), (text, files.text)] {
            do {
                // Owner-only (0600) from the moment the file exists, as every file Actuate writes.
                try OwnerOnlyFile.write(data, to: url)
            } catch {
                throw DebugReportError.writeFailed(path: url.path, reason: error.reason)
            }
        }
        return files
    }
}

/// The files a ``DebugReport`` wrote.
public struct DebugReportFiles: Sendable, Hashable {
    /// The JSON document.
    public var json: URL
    /// The readable text.
    public var text: URL
}

/// Why a ``DebugReport`` could not be written.
enum DebugReportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The directory does not exist.
    case directoryMissing(path: String)
    /// The path exists but is not a directory.
    case notADirectory(path: String)
    /// A file could not be written.
    case writeFailed(path: String, reason: String)

    var description: String {
        switch self {
        case .directoryMissing(let path): "The debug report directory \(path) does not exist."
        case .notADirectory(let path): "\(path) is not a directory."
        case .writeFailed(let path, let reason): "The debug report file \(path) could not be written: \(reason)"
        }
    }
}

import Foundation

/// Reads the JSON that ``DebugReport/jsonData()`` and `Timeline.jsonDump()` write (debug report format 1),
/// with clear errors for documents it cannot read.
///
/// ```swift
/// let report = try DebugReportDecoder().decodeReport(from: Data(contentsOf: reportURL))
/// for entry in report.timeline?.entries ?? [] where entry.outcome?.isFailure == true {
///     print(entry.actionName, entry.outcome?.message ?? "")
/// }
/// ```
///
/// A document without `formatVersion` was written before format 1 and fails with an error that says so and
/// asks to re-create it with this version; one with a newer version fails with an error naming both versions.
public struct DebugReportDecoder: Sendable {
    /// Creates a decoder.
    public init() {}

    /// A `JSONDecoder` for the report's sections: it reads dates in the report's format (ISO 8601 in UTC, such
    /// as `2026-11-23T10:15:01.000123Z`, with any number of fractional digits or none).
    ///
    /// - Returns: A new decoder.
    static func makeJSONDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = ReportDate.date(from: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "'\(text)' is not an ISO 8601 date such as 2026-11-23T10:15:01.000123Z."
                )
            }
            return date
        }
        return decoder
    }

    /// Reads a whole debug report (`debug-report.json`).
    ///
    /// - Parameter data: The JSON document.
    /// - Returns: The report, with its timeline and action stacks decoded.
    /// - Throws: An error whose description says why, when the data is not JSON, not a report, in another
    ///   format version, or has a malformed timeline or action stacks section.
    public func decodeReport(from data: Data) throws -> DebugReportDocument {
        let object = try Self.topLevelObject(data)
        let version = try Self.formatVersion(of: data)
        guard let generatedText = object["generatedAt"] as? String else {
            throw DebugReportDecodingError.notADebugReport(reason: "it has no generatedAt date.")
        }
        guard let generatedAt = ReportDate.date(from: generatedText) else {
            throw DebugReportDecodingError.notADebugReport(
                reason: "generatedAt '\(generatedText)' is not an ISO 8601 date."
            )
        }
        guard let names = object["sections"] as? [String] else {
            throw DebugReportDecodingError.notADebugReport(reason: "it has no list of sections.")
        }
        var sections: [String: Data] = [:]
        for name in names {
            guard let value = object[name] else {
                throw DebugReportDecodingError.malformedSection(
                    name: name,
                    reason: "it is listed in sections but missing."
                )
            }
            do {
                sections[name] = try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
            } catch {
                throw DebugReportDecodingError.malformedSection(name: name, reason: String(describing: error))
            }
        }
        return DebugReportDocument(
            formatVersion: version,
            generatedAt: generatedAt,
            sectionNames: names,
            timeline: try sections["timeline"].map { data throws(DebugReportDecodingError) in
                try Self.decode(TimelineDump.self, from: data, section: "timeline")
            },
            actionStacks: try sections["actionStacks"].map { data throws(DebugReportDecodingError) in
                try Self.decode(ActionStacksSnapshot.self, from: data, section: "actionStacks")
            },
            sectionData: sections
        )
    }

    /// Reads a timeline dump written by `Timeline.jsonDump()`.
    ///
    /// - Parameter data: The JSON document.
    /// - Returns: The timeline's capacity and entries.
    /// - Throws: ``DebugReportDecodingError`` when the data is not JSON, is an array of entries written before
    ///   format 1, is in another format version, or has malformed entries.
    func decodeTimeline(from data: Data) throws(DebugReportDecodingError) -> TimelineDump {
        _ = try Self.topLevelObject(data)
        _ = try Self.formatVersion(of: data)
        return try Self.decode(TimelineDump.self, from: data, section: "timeline")
    }

    static func decode<Value: Decodable>(
        _ type: Value.Type,
        from data: Data,
        section: String
    ) throws(DebugReportDecodingError) -> Value {
        do {
            return try makeJSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw .malformedSection(name: section, reason: Self.describe(error))
        } catch {
            throw .malformedSection(name: section, reason: String(describing: error))
        }
    }

    /// The document's top-level object; an array (a timeline dump of before format 1) has no version.
    private static func topLevelObject(_ data: Data) throws(DebugReportDecodingError) -> [String: Any] {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw .notJSON(reason: error.localizedDescription)
        }
        if parsed is [Any] { throw .writtenBeforeFormat1 }
        guard let object = parsed as? [String: Any] else {
            throw .notADebugReport(reason: "its top level is not an object.")
        }
        return object
    }

    /// The `formatVersion` of a document whose top level is an object.
    private static func formatVersion(of data: Data) throws(DebugReportDecodingError) -> Int {
        struct VersionProbe: Decodable {
            var formatVersion: Int?
        }
        let probed: Int?
        do {
            probed = try JSONDecoder().decode(VersionProbe.self, from: data).formatVersion
        } catch {
            throw .notADebugReport(reason: "formatVersion is not a whole number.")
        }
        guard let version = probed else { throw .writtenBeforeFormat1 }
        guard version >= 1 else { throw .notADebugReport(reason: "formatVersion \(version) is not a format.") }
        guard version <= DebugReport.formatVersion else {
            throw .newerFormat(found: version, supported: DebugReport.formatVersion)
        }
        return version
    }

    /// A decoding error as a sentence with its JSON path, such as `entries[0].startDate: ...`.
    private static func describe(_ error: DecodingError) -> String {
        let (context, problem): (DecodingError.Context, String) =
            switch error {
            case .typeMismatch(let type, let context): (context, "expected \(type)")
            case .valueNotFound(let type, let context): (context, "expected \(type), found null")
            case .keyNotFound(let key, let context): (context, "missing key '\(key.stringValue)'")
            case .dataCorrupted(let context): (context, context.debugDescription)
            @unknown default: (DecodingError.Context(codingPath: [], debugDescription: ""), "\(error)")
            }
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        let location = path.isEmpty ? "" : String(path.drop { $0 == "." }) + ": "
        return location + (problem == context.debugDescription ? problem : "\(problem) (\(context.debugDescription))")
    }
}

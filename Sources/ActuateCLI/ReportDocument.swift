import Foundation

/// A debug report as `actuate` reads it: format 1 of `debug-report.json`, documented in the README.
///
/// The CLI keeps its own read models rather than the library's types: it is a consumer of a documented file
/// format, and checks the format's version before anything else.
package struct ReportDocument {
    /// The newest format this version reads.
    static let supportedFormatVersion = 1

    /// The format the report was written in.
    var formatVersion: Int
    /// When the report was written, as written.
    var generatedAt: String
    /// The sections, in report order.
    var sections: [String]
    /// The timeline section.
    var timeline: ReportTimeline
    /// The action stacks section, when present and readable.
    var actionStacks: ReportActionStacks?

    /// Reads the report at `path`.
    ///
    /// - Throws: ``ToolError/failure(_:)`` naming the file and the problem.
    static func load(path: String) throws(ToolError) -> ReportDocument {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .failure("cannot read the report \(path): \(FileProblem.describe(error, path: path))")
        }
        do {
            return try parse(data)
        } catch let problem as ReportProblem {
            throw .failure("\(path) \(problem.text)")
        } catch {
            throw .failure("\(path): \(error)")
        }
    }

    /// Parses a report.
    ///
    /// - Throws: ``ReportProblem`` saying what is wrong.
    package static func parse(_ data: Data) throws -> ReportDocument {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw ReportProblem("is not JSON: \((error as NSError).localizedDescription)")
        }
        guard let document = object as? [String: Any] else {
            throw ReportProblem("is not an Actuate debug report: its top level is not a JSON object")
        }
        guard let versionValue = document["formatVersion"] else {
            guard document["timeline"] != nil || document["generatedAt"] != nil else {
                throw ReportProblem("is not an Actuate debug report: it has no \"formatVersion\" and no \"timeline\"")
            }
            throw ReportProblem(
                "was written before format 1 (it has no \"formatVersion\"); re-create it with this version "
                    + "of Actuate (for example `swift run shop-demo --dump DIR`)"
            )
        }
        // Read by the decoder, which takes only a whole number that fits an Int: never true, 1.5 or 1e300.
        guard let version = try? JSONDecoder().decode(FormatVersion.self, from: data).formatVersion, version >= 1
        else {
            let found = String(describing: versionValue)
            throw ReportProblem(
                "has an invalid \"formatVersion\": expected a whole number from 1 to \(supportedFormatVersion), found "
                    + (found.count > 40 ? found.prefix(40) + "…" : found)
            )
        }
        guard version <= supportedFormatVersion else {
            throw ReportProblem(
                "is in format \(version), but this actuate reads format \(supportedFormatVersion); "
                    + "use the actuate of the Actuate version that wrote it"
            )
        }
        let decoder = JSONDecoder()
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: data)
        } catch let error as DecodingError {
            throw ReportProblem("is not a valid format \(version) report: \(DecodingProblem.describe(error))")
        }
        var stacks: ReportActionStacks?
        if let section = document["actionStacks"], JSONSerialization.isValidJSONObject(section) {
            stacks = try? decoder.decode(
                ReportActionStacks.self,
                from: JSONSerialization.data(withJSONObject: section)
            )
        }
        return ReportDocument(
            formatVersion: version,
            generatedAt: header.generatedAt,
            sections: header.sections,
            timeline: header.timeline,
            actionStacks: stacks
        )
    }

    /// The field every report has, in every format.
    private struct FormatVersion: Decodable {
        var formatVersion: Int
    }

    /// The fields every format 1 report has.
    private struct Header: Decodable {
        var generatedAt: String
        var sections: [String]
        var timeline: ReportTimeline
    }
}

/// What is wrong with a report, as the end of a sentence that starts with its path.
struct ReportProblem: Error {
    let text: String

    init(_ text: String) {
        self.text = text
    }
}

/// Turns decoding errors into a JSON path and a reason.
enum DecodingProblem {
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath)) has no \"\(key.stringValue)\""
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) is not \(article(for: type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) is null instead of \(article(for: type))"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        "$" + codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }

    private static func article(for type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type, is UInt64.Type, is Double.Type: "a number"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }
}

/// Describes a file that could not be read.
enum FileProblem {
    static func describe(_ error: any Error, path: String) -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) { return "no such file" }
        if isDirectory.boolValue { return "it is a directory" }
        return (error as NSError).localizedDescription
    }
}

import Foundation

extension ActionCatalog {
    /// Reads a catalog from JSON: a document written by ``jsonData()``, or a debug report with a `catalog`
    /// section.
    ///
    /// - Parameter data: The JSON document.
    /// - Returns: The catalog.
    /// - Throws: ``ActionCatalogError`` when the data is not JSON, is not a catalog, was written in a newer
    ///   format, or lacks a field.
    package static func decode(from data: Data) throws(ActionCatalogError) -> ActionCatalog {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw .notJSON(reason: (error as NSError).localizedDescription)
        }
        guard var document = object as? [String: Any] else { throw .notACatalog }
        if document["features"] == nil, let section = document["catalog"] as? [String: Any] {
            document = section
        }
        guard document["features"] != nil else { throw .notACatalog }
        guard let version = document["formatVersion"] as? Int else { throw .missingFormatVersion }
        guard version <= formatVersion else { throw .newerFormat(found: version, supported: formatVersion) }
        do {
            let section = try JSONSerialization.data(withJSONObject: document)
            return try JSONDecoder().decode(ActionCatalog.self, from: section)
        } catch let error as DecodingError {
            throw .malformed(reason: Self.describe(error))
        } catch {
            throw .malformed(reason: "\(error)")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let components = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
            return components.isEmpty ? "the document" : "$" + components.joined()
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context)) has no \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}

/// Why ``ActionCatalog/decode(from:)`` could not read a catalog.
package enum ActionCatalogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The data is not JSON.
    case notJSON(reason: String)
    /// The JSON is neither a catalog nor a debug report with a `catalog` section.
    case notACatalog
    /// The catalog has no `formatVersion`.
    case missingFormatVersion
    /// The catalog was written in a newer format than this version reads.
    case newerFormat(found: Int, supported: Int)
    /// A field is missing or has the wrong type.
    case malformed(reason: String)

    /// A sentence describing the problem.
    package var description: String {
        switch self {
        case .notJSON(let reason):
            "The action catalog is not valid JSON: \(reason)"
        case .notACatalog:
            "The JSON is not an action catalog (no \"features\"), nor a debug report with a \"catalog\" section."
        case .missingFormatVersion:
            "The action catalog has no formatVersion: it was written before format 1; re-create it with this version."
        case .newerFormat(let found, let supported):
            "The action catalog is in format \(found), but this version of Actuate reads format \(supported) "
                + "and older; read it with a newer version."
        case .malformed(let reason):
            "The action catalog is malformed: \(reason)."
        }
    }
}

import ActuateReporting
import Foundation

/// Reads the `contentBlocks` array of a rules file, collecting every problem with its JSON path instead of
/// stopping at the first.
struct ContentBlockRulesParser {
    private var reader = RulesDocumentReader()
    /// The problems found, in the order they were found.
    var problems: [RulesFileProblem] { reader.problems }

    static let blockKeys = [
        "id", "name", "placeholders", "html", "type", "priority", "frequency", "variant", "version", "assets",
        "ttlSeconds", "hasTrackingConsent",
    ]
    static let variantKeys = ["id", "name"]

    /// The blocks that could be read; check ``problems`` for what could not.
    mutating func parse(_ data: Data) -> [ContentBlock] {
        guard let root = reader.root(of: data), let object = reader.object(root, at: "$") else { return [] }
        let listPath = "$.\(ContentBlockRules.key)"
        var blocks: [ContentBlock] = []
        var seenIDs: [String: Int] = [:]
        for (index, element) in (reader.array(object[ContentBlockRules.key], at: listPath) ?? []).enumerated() {
            let path = "\(listPath)[\(index)]"
            guard let block = parseBlock(element, at: path) else { continue }
            if let first = seenIDs[block.id] {
                reader.report("\(path).id", "duplicate id \"\(block.id)\"; \(listPath)[\(first)] already uses it")
                continue
            }
            seenIDs[block.id] = index
            blocks.append(block)
        }
        return blocks
    }

    // MARK: Blocks

    private mutating func parseBlock(_ value: JSONValue, at path: String) -> ContentBlock? {
        guard let object = reader.object(value, at: path, keys: Self.blockKeys) else { return nil }
        // An unknown key fails the document but keeps the block, so a later block that repeats its id is named.
        let before = reader.problems.count
        let id = reader.string(object["id"], at: "\(path).id", required: true, nonEmpty: true)
        let name = reader.string(object["name"], at: "\(path).name", required: true, nonEmpty: true)
        let placeholders = parsePlaceholderIDs(object["placeholders"], at: "\(path).placeholders")
        let html = reader.string(object["html"], at: "\(path).html", required: true)
        let type = object["type"] == nil ? "html" : reader.string(object["type"], at: "\(path).type", nonEmpty: true)
        let priority = reader.wholeNumber(object["priority"], at: "\(path).priority") ?? 0
        let frequency = object["frequency"].map { parseFrequency($0, at: "\(path).frequency") } ?? .always
        let variant = object["variant"].flatMap { parseVariant($0, at: "\(path).variant") }
        let version = reader.wholeNumber(object["version"], at: "\(path).version", in: 0...Int.max) ?? 0
        let assets = parseAssetURLs(object["assets"], at: "\(path).assets")
        let timeToLive = object["ttlSeconds"].flatMap { reader.duration($0, at: "\(path).ttlSeconds") }
        let consent = object["hasTrackingConsent"].flatMap { reader.bool($0, at: "\(path).hasTrackingConsent") }
        guard reader.problems.count == before, let id, let name, let html, let type else { return nil }
        return ContentBlock(
            id: id,
            name: name,
            placeholders: placeholders,
            html: html,
            type: type,
            priority: priority,
            frequency: frequency,
            variant: variant,
            version: version,
            assets: assets,
            timeToLive: timeToLive,
            hasTrackingConsent: consent
        )
    }

    private mutating func parsePlaceholderIDs(_ value: JSONValue?, at path: String) -> [String] {
        guard let value else {
            reader.report(path, "missing; list the ids of the placeholders the block may appear in")
            return []
        }
        guard let elements = reader.array(value, at: path) else { return [] }
        guard !elements.isEmpty else {
            reader.report(path, "expected a non-empty array of placeholder ids, found an empty array")
            return []
        }
        return reader.strings(elements, at: path, nonEmpty: true)
    }

    private mutating func parseFrequency(_ value: JSONValue, at path: String) -> ContentBlockFrequency {
        let name = reader.choice(
            value,
            at: path,
            named: "frequency",
            among: ContentBlockFrequency.allCases.map(\.rawValue),
            suggestion: Self.camelCase
        )
        return name.flatMap(ContentBlockFrequency.init(rawValue:)) ?? .always
    }

    private mutating func parseVariant(_ value: JSONValue, at path: String) -> ContentBlockVariant? {
        guard let object = reader.object(value, at: path, keys: Self.variantKeys) else { return nil }
        let id = reader.string(object["id"], at: "\(path).id", required: true, nonEmpty: true)
        let name = reader.string(object["name"], at: "\(path).name")
        return id.map { ContentBlockVariant(id: $0, name: name) }
    }

    private mutating func parseAssetURLs(_ value: JSONValue?, at path: String) -> [URL] {
        (reader.array(value, at: path) ?? []).enumerated().compactMap { offset, element in
            let elementPath = "\(path)[\(offset)]"
            guard let text = reader.string(element, at: elementPath, required: true) else { return nil }
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host != nil
            else {
                reader.report(elementPath, "\"\(text)\" is not an http or https URL")
                return nil
            }
            return url
        }
    }

    // MARK: Text

    private static func camelCase(_ text: String) -> String? {
        let words = text.split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == " " })
        guard let first = words.first else { return nil }
        return first.lowercased()
            + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined()
    }
}

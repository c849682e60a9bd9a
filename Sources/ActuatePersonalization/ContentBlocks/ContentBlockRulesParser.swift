import ActuateReporting
import Foundation

/// Reads the `contentBlocks` array of a rules file, collecting every problem with its JSON path instead of
/// stopping at the first.
struct ContentBlockRulesParser {
    private(set) var problems: [RulesFileProblem] = []

    static let blockKeys: Set<String> = [
        "id", "name", "placeholders", "html", "type", "priority", "frequency", "variant", "version", "assets",
        "ttlSeconds", "hasTrackingConsent",
    ]

    /// The blocks that could be read; check ``problems`` for what could not.
    mutating func parse(_ data: Data) -> [ContentBlock] {
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            report("$", "not valid JSON: \(Self.reason(error))")
            return []
        }
        guard case .object(let object) = root else {
            report("$", "expected an object with a \"\(ContentBlockRules.key)\" array, found \(Self.kind(root))")
            return []
        }
        guard let list = object[ContentBlockRules.key] else { return [] }
        let listPath = "$.\(ContentBlockRules.key)"
        guard case .array(let elements) = list else {
            report(listPath, "expected an array of content blocks, found \(Self.kind(list))")
            return []
        }
        var blocks: [ContentBlock] = []
        var seenIds: [String: Int] = [:]
        for (index, element) in elements.enumerated() {
            let path = "\(listPath)[\(index)]"
            guard let block = parseBlock(element, at: path) else { continue }
            if let first = seenIds[block.id] {
                report("\(path).id", "duplicate id \"\(block.id)\"; \(listPath)[\(first)] already uses it")
                continue
            }
            seenIds[block.id] = index
            blocks.append(block)
        }
        return blocks
    }

    // MARK: Blocks

    private mutating func parseBlock(_ value: JSONValue, at path: String) -> ContentBlock? {
        guard case .object(let object) = value else {
            report(path, "expected a content block object, found \(Self.kind(value))")
            return nil
        }
        for key in object.keys.sorted() where !Self.blockKeys.contains(key) {
            report(
                Self.path(path, key),
                "unknown key; expected one of \(Self.blockKeys.sorted().joined(separator: ", "))"
            )
        }
        let before = problems.count
        let id = nonEmptyString(object["id"], at: "\(path).id")
        let name = nonEmptyString(object["name"], at: "\(path).name")
        let placeholders = placeholderIds(object["placeholders"], at: "\(path).placeholders")
        let html = string(object["html"], at: "\(path).html", required: true)
        let type = object["type"] == nil ? "html" : nonEmptyString(object["type"], at: "\(path).type")
        let priority = integer(object["priority"], at: "\(path).priority") ?? 0
        let frequency = frequency(object["frequency"], at: "\(path).frequency")
        let variant = variant(object["variant"], at: "\(path).variant")
        let version = integer(object["version"], at: "\(path).version", minimum: 0) ?? 0
        let assets = assetURLs(object["assets"], at: "\(path).assets")
        let timeToLive = timeToLive(object["ttlSeconds"], at: "\(path).ttlSeconds")
        let consent = bool(object["hasTrackingConsent"], at: "\(path).hasTrackingConsent")
        guard problems.count == before, let id, let name, let html, let type else { return nil }
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

    private mutating func placeholderIds(_ value: JSONValue?, at path: String) -> [String] {
        guard let value else {
            report(path, "missing; list the ids of the placeholders the block may appear in")
            return []
        }
        guard case .array(let elements) = value, !elements.isEmpty else {
            report(path, "expected a non-empty array of placeholder ids, found \(Self.kind(value))")
            return []
        }
        return elements.enumerated().compactMap { nonEmptyString($0.element, at: "\(path)[\($0.offset)]") }
    }

    private mutating func frequency(_ value: JSONValue?, at path: String) -> ContentBlockFrequency {
        guard let value else { return .always }
        let names = ContentBlockFrequency.allCases.map(\.rawValue)
        guard let text = value.stringValue else {
            report(path, "expected one of \(names.joined(separator: ", ")), found \(Self.kind(value))")
            return .always
        }
        if let frequency = ContentBlockFrequency(rawValue: text) { return frequency }
        let camel = Self.camelCase(text)
        if ContentBlockFrequency(rawValue: camel) != nil {
            report(path, "unknown frequency \"\(text)\"; write \"\(camel)\"")
        } else {
            report(path, "unknown frequency \"\(text)\"; expected one of \(names.joined(separator: ", "))")
        }
        return .always
    }

    private mutating func variant(_ value: JSONValue?, at path: String) -> ContentBlockVariant? {
        guard let value else { return nil }
        guard case .object(let object) = value else {
            report(path, "expected an object with \"id\" and optional \"name\", found \(Self.kind(value))")
            return nil
        }
        for key in object.keys.sorted() where key != "id" && key != "name" {
            report(Self.path(path, key), "unknown key; expected id, name")
        }
        let id = nonEmptyString(object["id"], at: "\(path).id")
        let name = string(object["name"], at: "\(path).name", required: false)
        return id.map { ContentBlockVariant(id: $0, name: name) }
    }

    private mutating func assetURLs(_ value: JSONValue?, at path: String) -> [URL] {
        guard let value else { return [] }
        guard case .array(let elements) = value else {
            report(path, "expected an array of http or https URLs, found \(Self.kind(value))")
            return []
        }
        return elements.enumerated().compactMap { offset, element in
            let elementPath = "\(path)[\(offset)]"
            guard let text = string(element, at: elementPath, required: true) else { return nil }
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host != nil
            else {
                report(elementPath, "\"\(text)\" is not an http or https URL")
                return nil
            }
            return url
        }
    }

    private mutating func timeToLive(_ value: JSONValue?, at path: String) -> Duration? {
        guard let value else { return nil }
        guard let seconds = value.numberValue, let duration = JSONNumberPolicy.duration(seconds: seconds) else {
            let range = JSONNumberPolicy.secondsRange
            report(
                path,
                "expected a number of seconds from \(range.lowerBound) to \(Int(range.upperBound)) (365 days), "
                    + "found \(Self.describe(value))"
            )
            return nil
        }
        return duration
    }

    // MARK: Values

    private mutating func nonEmptyString(_ value: JSONValue?, at path: String) -> String? {
        guard let text = string(value, at: path, required: true) else { return nil }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            report(path, "must not be empty")
            return nil
        }
        return text
    }

    private mutating func string(_ value: JSONValue?, at path: String, required: Bool) -> String? {
        guard let value else {
            if required { report(path, "missing; expected a string") }
            return nil
        }
        guard let text = value.stringValue else {
            report(path, "expected a string, found \(Self.kind(value))")
            return nil
        }
        return text
    }

    private mutating func integer(_ value: JSONValue?, at path: String, minimum: Int = .min) -> Int? {
        guard let value else { return nil }
        let range = minimum...Int.max
        guard let number = value.numberValue else {
            report(path, "expected a whole number, found \(Self.describe(value))")
            return nil
        }
        guard let whole = JSONNumberPolicy.wholeNumber(number, in: range) else {
            report(path, JSONNumberPolicy.wholeNumberProblem(found: number, in: range))
            return nil
        }
        return whole
    }

    private mutating func bool(_ value: JSONValue?, at path: String) -> Bool? {
        guard let value else { return nil }
        guard let flag = value.boolValue else {
            report(path, "expected true or false, found \(Self.kind(value))")
            return nil
        }
        return flag
    }

    private mutating func report(_ path: String, _ message: String) {
        problems.append(RulesFileProblem(path: path, message: message))
    }

    // MARK: Text

    static func path(_ base: String, _ key: String) -> String {
        let plain =
            key.first.map { $0.isLetter || $0 == "_" } == true
            && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        return plain ? "\(base).\(key)" : "\(base)[\"\(key.replacingOccurrences(of: "\"", with: "\\\""))\"]"
    }

    static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    private static func describe(_ value: JSONValue) -> String {
        if let number = value.numberValue { return JSONNumberPolicy.describe(number) }
        if let text = value.stringValue { return "a string \"\(text.prefix(40))\"" }
        return kind(value)
    }

    private static func camelCase(_ text: String) -> String {
        let words = text.split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == " " })
        guard let first = words.first else { return text }
        return first.lowercased()
            + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined()
    }

    private static func reason(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return error.localizedDescription }
        switch decoding {
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return underlying ?? context.debugDescription
        default:
            return String(describing: decoding)
        }
    }
}

import ActuateReporting
import Foundation

/// Reads a rules file's JSON into a ``RulesFile``, collecting every problem with its JSON path instead of
/// stopping at the first.
struct RulesFileParser {
    private(set) var problems: [RulesFileProblem] = []

    /// The parsed rules, or nil when the JSON is not an object at all; check ``problems`` either way.
    mutating func parse(_ data: Data) -> RulesFile? {
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            report("$", "not valid JSON: \(Self.reason(error, in: data))")
            return nil
        }
        guard let object = object(root, at: "$") else { return nil }
        let known: Set<String> = ["$schema", "version", "actions", "conditions"]
        for key in object.keys.sorted() where !known.contains(key) && !RulesFile.otherPartsKeys.contains(key) {
            let expected = (known.union(RulesFile.otherPartsKeys)).sorted().joined(separator: ", ")
            report(Self.path("$", key), "unknown key; expected one of \(expected)")
        }
        if let schema = object["$schema"], schema.stringValue == nil {
            report("$.$schema", "expected a string, found \(Self.kind(schema))")
        }
        if let version = object["version"], integer(version, at: "$.version") != 1, version.numberValue != nil {
            report("$.version", "unsupported version; this reader understands version 1")
        }
        var actions: [ContentAction] = []
        var actionPaths: [String] = []
        for (index, element) in array(object["actions"], at: "$.actions", required: false).enumerated() {
            let path = "$.actions[\(index)]"
            if let action = parseAction(element, at: path) {
                actions.append(action)
                actionPaths.append(path)
            }
        }
        var conditions: [RuleCondition] = []
        var conditionPaths: [String] = []
        for (index, element) in array(object["conditions"], at: "$.conditions", required: false).enumerated() {
            let path = "$.conditions[\(index)]"
            if let condition = parseCondition(element, at: path) {
                conditions.append(condition)
                conditionPaths.append(path)
            }
        }
        let rules = RulesFile(actions: actions, conditions: conditions)
        // Elements with a readable id are kept even when other fields are wrong, so references to them stay
        // valid; a cross check at a path already reported would only repeat the problem.
        let reported = Set(problems.map(\.path))
        problems += RulesFileChecks.problems(in: rules, actionPaths: actionPaths, conditionPaths: conditionPaths)
            .filter { !reported.contains($0.path) }
        problems.sort { Self.documentOrder($0.path, $1.path) }
        return rules
    }

    // MARK: Elements

    private mutating func parseAction(_ value: JSONValue, at path: String) -> ContentAction? {
        guard let object = object(value, at: path) else { return nil }
        allowKeys(object, ["id", "name", "contentType", "content"], at: path)
        let id = integer(object["id"], at: "\(path).id", required: true)
        let name = string(object["name"], at: "\(path).name")
        let contentType = string(object["contentType"], at: "\(path).contentType", required: true)
        let content = string(object["content"], at: "\(path).content", required: true)
        guard let id else { return nil }
        return ContentAction(id: id, name: name, contentType: contentType ?? "", content: content ?? "")
    }

    private mutating func parseCondition(_ value: JSONValue, at path: String) -> RuleCondition? {
        guard let object = object(value, at: path) else { return nil }
        allowKeys(object, ["id", "name", "actions", "controlGroupPercent", "targeting"], at: path)
        let id = integer(object["id"], at: "\(path).id", required: true)
        let name = string(object["name"], at: "\(path).name")
        let actionIds = array(object["actions"], at: "\(path).actions", required: true).enumerated().compactMap {
            integer($0.element, at: "\(path).actions[\($0.offset)]", required: true)
        }
        var percent = 0.0
        if let raw = object["controlGroupPercent"] {
            if let number = raw.numberValue {
                percent = number
            } else {
                report("\(path).controlGroupPercent", "expected a number from 0 to 100, found \(Self.kind(raw))")
            }
        }
        let targeting = object["targeting"].map { parseTargeting($0, at: "\(path).targeting") } ?? .everyone
        guard let id else { return nil }
        return RuleCondition(
            id: id,
            name: name,
            actionIds: actionIds,
            controlGroupPercent: percent,
            targeting: targeting
        )
    }

    private mutating func parseTargeting(_ value: JSONValue, at path: String) -> RuleTargeting {
        guard let object = object(value, at: path) else { return .everyone }
        allowKeys(object, ["documents", "productsSeen", "articlesSeen", "userData", "sessionCount"], at: path)
        var targeting = RuleTargeting()
        if object["documents"] != nil {
            targeting.documents = array(object["documents"], at: "\(path).documents", required: true)
                .enumerated().compactMap { string($0.element, at: "\(path).documents[\($0.offset)]", required: true) }
        }
        if let raw = object["productsSeen"] {
            targeting.productsSeen = parseSeen(raw, at: "\(path).productsSeen", as: ProductList.self)
        }
        if let raw = object["articlesSeen"] {
            targeting.articlesSeen = parseSeen(raw, at: "\(path).articlesSeen", as: ArticleList.self)
        }
        if let raw = object["userData"], let fields = self.object(raw, at: "\(path).userData") {
            var userData: [String: String] = [:]
            for key in fields.keys.sorted() {
                if let text = string(fields[key], at: Self.path("\(path).userData", key), required: true) {
                    userData[key] = text
                }
            }
            targeting.userData = userData
        }
        if let raw = object["sessionCount"], let range = self.object(raw, at: "\(path).sessionCount") {
            allowKeys(range, ["min", "max"], at: "\(path).sessionCount")
            targeting.sessionCount = SessionCountRule(
                min: integer(range["min"], at: "\(path).sessionCount.min"),
                max: integer(range["max"], at: "\(path).sessionCount.max")
            )
        }
        return targeting
    }

    private mutating func parseSeen<List: ItemList>(
        _ value: JSONValue,
        at path: String,
        as: List.Type
    )
        -> SeenItemsRule<List>?
    {
        guard let object = object(value, at: path) else { return nil }
        allowKeys(object, ["event", "anyOf", "minCount"], at: path)
        var list = List.allCases.first { $0.rawValue == "viewed" } ?? List.allCases.first!
        if let raw = object["event"] {
            let names = List.allCases.map(\.rawValue)
            if let name = raw.stringValue, let match = List(rawValue: name) {
                list = match
            } else {
                let found = raw.stringValue.map { "\"\($0)\"" } ?? Self.kind(raw)
                report("\(path).event", "expected one of \(names.joined(separator: ", ")), found \(found)")
            }
        }
        let anyOf = array(object["anyOf"], at: "\(path).anyOf", required: false).enumerated().compactMap {
            string($0.element, at: "\(path).anyOf[\($0.offset)]", required: true)
        }
        let minCount = integer(object["minCount"], at: "\(path).minCount", in: 1...Int.max) ?? 1
        return SeenItemsRule(list: list, anyOf: anyOf, minCount: minCount)
    }

    // MARK: Values

    private mutating func report(_ path: String, _ message: String) {
        problems.append(RulesFileProblem(path: path, message: message))
    }

    private mutating func object(_ value: JSONValue, at path: String) -> [String: JSONValue]? {
        if case .object(let object) = value { return object }
        report(path, "expected an object, found \(Self.kind(value))")
        return nil
    }

    private mutating func array(_ value: JSONValue?, at path: String, required: Bool) -> [JSONValue] {
        guard let value else {
            if required { report(path, "missing; expected an array") }
            return []
        }
        if case .array(let elements) = value { return elements }
        report(path, "expected an array, found \(Self.kind(value))")
        return []
    }

    private mutating func string(_ value: JSONValue?, at path: String, required: Bool = false) -> String? {
        guard let value else {
            if required { report(path, "missing; expected a string") }
            return nil
        }
        if case .string(let text) = value { return text }
        report(path, "expected a string, found \(Self.kind(value))")
        return nil
    }

    private mutating func integer(
        _ value: JSONValue?,
        at path: String,
        required: Bool = false,
        in range: ClosedRange<Int> = JSONNumberPolicy.wholeNumbers
    ) -> Int? {
        guard let value else {
            if required { report(path, "missing; expected a whole number") }
            return nil
        }
        guard case .number(let number) = value else {
            report(path, "expected a whole number, found \(Self.kind(value))")
            return nil
        }
        guard let whole = JSONNumberPolicy.wholeNumber(number, in: range) else {
            report(path, JSONNumberPolicy.wholeNumberProblem(found: number, in: range))
            return nil
        }
        return whole
    }

    private mutating func allowKeys(_ object: [String: JSONValue], _ allowed: Set<String>, at path: String) {
        for key in object.keys.sorted() where !allowed.contains(key) {
            report(Self.path(path, key), "unknown key; expected one of \(allowed.sorted().joined(separator: ", "))")
        }
    }

    // MARK: Text

    /// Orders paths as their elements appear in the file: array indices numerically, then keys by name.
    static func documentOrder(_ lhs: String, _ rhs: String) -> Bool {
        lhs.compare(rhs, options: .numeric) == .orderedAscending
    }

    /// `base.key`, or `base["key"]` when the key is not a plain name.
    static func path(_ base: String, _ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "$")
            }
        if plain { return "\(base).\(key)" }
        let escaped = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\(base)[\"\(escaped)\"]"
    }

    static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a Boolean"
        case .number(let number):
            "a number (\(JSONNumberPolicy.describe(number)))"
        case .string(let text): text.count > 30 ? "a string" : "a string (\"\(text)\")"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The most specific reason for invalid JSON: the parser's own message, with a line and column when it
    /// gives a character offset.
    static func reason(_ error: any Error, in data: Data) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let nsError = error as NSError
            if let debug = nsError.userInfo[NSDebugDescriptionErrorKey] as? String {
                return debug + location(in: debug, data: data)
            }
        }
        if case DecodingError.dataCorrupted(let context) = error { return context.debugDescription }
        return String(describing: error)
    }

    /// ` (line L, column C)` for a message that names `character N`, or nothing.
    private static func location(in message: String, data: Data) -> String {
        guard let range = message.range(of: "character ") else { return "" }
        let digits = message[range.upperBound...].prefix { $0.isNumber }
        guard let offset = Int(digits), offset <= data.count else { return "" }
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return " (line \(line), column \(column))"
    }
}

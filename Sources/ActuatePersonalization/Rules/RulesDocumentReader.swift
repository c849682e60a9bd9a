import ActuateReporting
import Foundation

/// The one reader of the rules documents this module takes from outside (content actions and conditions,
/// campaigns, content blocks): it walks a decoded JSON value and collects every problem at its JSON path, in one
/// path format, one number policy (``JSONNumberPolicy``) and one wording, instead of stopping at the first.
///
/// Paths start at `$`, name plain keys with a dot (`$.actions[3].contentType`) and quote any other key in
/// brackets (`$.userData["first name"]`). Messages say what was expected and what was found:
/// `expected a whole number, found a string ("7")`, `missing; expected a string`,
/// `unknown key; expected one of content, contentType, id, name`.
///
/// Each accessor returns nil (or skips) after reporting why, so a parser reads every field of an element and
/// reports every problem in it.
struct RulesDocumentReader {
    /// The problems found so far, in the order they were found.
    private(set) var problems: [RulesFileProblem] = []

    /// Adds a problem at `path`.
    mutating func report(_ path: String, _ message: String) {
        problems.append(RulesFileProblem(path: path, message: message))
    }

    /// The decoded document, or nil after reporting at `$` why `data` is not JSON.
    mutating func root(of data: Data) -> JSONValue? {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            report("$", "not valid JSON: \(Self.reason(error, in: data))")
            return nil
        }
    }

    // MARK: Containers

    /// `value` as an object, or nil after reporting what it is instead. When `keys` is given, every other key is
    /// reported as unknown.
    mutating func object(
        _ value: JSONValue,
        at path: String,
        keys: [String]? = nil
    ) -> [String: JSONValue]? {
        guard case .object(let object) = value else {
            report(path, "expected an object, found \(Self.kind(value))")
            return nil
        }
        if let keys {
            let expected = keys.sorted().joined(separator: ", ")
            for key in object.keys.sorted() where !keys.contains(key) {
                report(Self.path(path, key), "unknown key; expected one of \(expected)")
            }
        }
        return object
    }

    /// `value` as an array, or nil after reporting what it is instead; nil without a report when it is absent
    /// and not `required`.
    mutating func array(_ value: JSONValue?, at path: String, required: Bool = false) -> [JSONValue]? {
        guard let value else {
            if required { report(path, "missing; expected an array") }
            return nil
        }
        guard case .array(let elements) = value else {
            report(path, "expected an array, found \(Self.kind(value))")
            return nil
        }
        return elements
    }

    // MARK: Values

    /// `value` as a string, or nil after reporting what it is instead; nil without a report when it is absent
    /// and not `required`. A `nonEmpty` string must hold more than white space.
    mutating func string(
        _ value: JSONValue?,
        at path: String,
        required: Bool = false,
        nonEmpty: Bool = false
    ) -> String? {
        let expected = nonEmpty ? "a non-empty string" : "a string"
        guard let value else {
            if required { report(path, "missing; expected \(expected)") }
            return nil
        }
        guard case .string(let text) = value else {
            report(path, "expected \(expected), found \(Self.kind(value))")
            return nil
        }
        if nonEmpty, text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            report(path, "must not be empty")
            return nil
        }
        return text
    }

    /// The strings of an array, each checked at its own path; elements that are not strings are reported and
    /// left out.
    mutating func strings(_ elements: [JSONValue], at path: String, nonEmpty: Bool = false) -> [String] {
        elements.enumerated().compactMap {
            string($0.element, at: "\(path)[\($0.offset)]", required: true, nonEmpty: nonEmpty)
        }
    }

    /// `value` as a whole number in `range`, range-checked before it is converted; nil after reporting a
    /// problem, or without a report when it is absent and not `required`.
    mutating func wholeNumber(
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

    /// `value` as a percentage from 0 to 100, or nil after reporting a problem.
    mutating func percent(_ value: JSONValue, at path: String) -> Double? {
        guard case .number(let number) = value else {
            report(path, "expected a number from 0 to 100, found \(Self.kind(value))")
            return nil
        }
        guard let percent = JSONNumberPolicy.percent(number) else {
            report(path, JSONNumberPolicy.percentProblem(found: number))
            return nil
        }
        return percent
    }

    /// `value` as a duration in seconds within ``JSONNumberPolicy/secondsRange``, or nil after reporting a
    /// problem.
    mutating func duration(_ value: JSONValue, at path: String) -> Duration? {
        let range = JSONNumberPolicy.secondsRange
        let expected = "expected a number of seconds from \(range.lowerBound) to \(Int(range.upperBound)) (365 days)"
        guard case .number(let seconds) = value else {
            report(path, "\(expected), found \(Self.kind(value))")
            return nil
        }
        guard let duration = JSONNumberPolicy.duration(seconds: seconds) else {
            report(path, "\(expected), found \(JSONNumberPolicy.describe(seconds))")
            return nil
        }
        return duration
    }

    /// `value` as `true` or `false`, or nil after reporting what it is instead.
    mutating func bool(_ value: JSONValue, at path: String) -> Bool? {
        guard case .bool(let flag) = value else {
            report(path, "expected true or false, found \(Self.kind(value))")
            return nil
        }
        return flag
    }

    /// `value` as one of `names`, or nil after reporting it: `unknown frequency "daily"; expected one of always,
    /// never`. `suggestion` may offer the name that was meant, which replaces the list.
    mutating func choice(
        _ value: JSONValue,
        at path: String,
        named what: String,
        among names: [String],
        suggestion: (String) -> String? = { _ in nil }
    ) -> String? {
        let expected = "expected one of \(names.joined(separator: ", "))"
        guard case .string(let text) = value else {
            report(path, "\(expected), found \(Self.kind(value))")
            return nil
        }
        if names.contains(text) { return text }
        if let meant = suggestion(text), names.contains(meant) {
            report(path, "unknown \(what) \"\(text)\"; write \"\(meant)\"")
        } else {
            report(path, "unknown \(what) \"\(text)\"; \(expected)")
        }
        return nil
    }

    // MARK: Wording

    /// `base.key`, or `base["key"]` when the key is not a plain name (an ASCII letter, `_` or `$`, then ASCII
    /// letters, digits, `_` or `$`), with `\`, `"` and control characters escaped as in JSON.
    static func path(_ base: String, _ key: String) -> String {
        let scalars = key.unicodeScalars
        let plain =
            scalars.first.map { $0.isASCII && ($0.properties.isAlphabetic || $0 == "_" || $0 == "$") } == true
            && scalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "$")
            }
        if plain { return "\(base).\(key)" }
        var escaped = ""
        for scalar in scalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: false)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\(base)[\"\(escaped)\"]"
    }

    /// What a problem says it found: `null`, `a Boolean`, `a number (7.5)`, `a string ("7")` (short strings
    /// quoted), `an array`, `an object`.
    static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a Boolean"
        case .number(let number): "a number (\(JSONNumberPolicy.describe(number)))"
        case .string(let text): text.count > 30 ? "a string" : "a string (\"\(text)\")"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Orders paths as their elements appear in the document: array indices numerically, then keys by name.
    static func documentOrder(_ lhs: String, _ rhs: String) -> Bool {
        lhs.compare(rhs, options: .numeric) == .orderedAscending
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

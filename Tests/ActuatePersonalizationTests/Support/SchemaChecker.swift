import Foundation

@testable import ActuateReporting

/// Checks JSON against a JSON Schema (draft 2020-12), for the keywords the rules schema uses: `type`,
/// `properties`, `additionalProperties`, `required`, `items`, `enum`, `minimum`, `maximum`, `minLength`,
/// `minItems`, `minProperties` and local `$ref`s to `#/$defs/…`. Any other keyword is an error, so a schema
/// that grows beyond what this checks fails loudly instead of passing unchecked.
struct SchemaChecker {
    struct UnsupportedKeyword: Error, CustomStringConvertible {
        var keyword: String
        var path: String
        var description: String { "the schema uses \"\(keyword)\" at \(path), which SchemaChecker does not support" }
    }

    private static let annotations: Set<String> = ["$schema", "$id", "title", "description", "$defs"]
    private static let supported: Set<String> = [
        "type", "properties", "additionalProperties", "required", "items", "enum", "minimum", "maximum",
        "minLength", "minItems", "minProperties", "$ref",
    ]

    let root: JSONValue

    init(schema: Data) throws {
        root = try JSONDecoder().decode(JSONValue.self, from: schema)
    }

    /// Every violation of the schema in `instance`, as `path: message`.
    func violations(of instance: JSONValue) throws -> [String] {
        var found: [String] = []
        try check(instance, against: root, schemaPath: "#", at: "$", into: &found)
        return found
    }

    private func check(
        _ value: JSONValue,
        against schema: JSONValue,
        schemaPath: String,
        at path: String,
        into found: inout [String]
    ) throws {
        guard case .object(let keywords) = schema else {
            if case .bool(let allowed) = schema, !allowed { found.append("\(path): no value is allowed here") }
            return
        }
        for keyword in keywords.keys where !Self.supported.contains(keyword) && !Self.annotations.contains(keyword) {
            throw UnsupportedKeyword(keyword: keyword, path: schemaPath)
        }
        if case .string(let reference) = keywords["$ref"] {
            try check(value, against: try resolve(reference), schemaPath: reference, at: path, into: &found)
        }
        if let type = keywords["type"], !Self.matches(value, type: type) {
            found.append("\(path): expected \(type), found \(value)")
            return
        }
        if case .array(let options) = keywords["enum"], !options.contains(value) {
            found.append("\(path): \(value) is not one of \(options)")
        }
        if case .number(let number) = value {
            if case .number(let minimum) = keywords["minimum"], number < minimum {
                found.append("\(path): \(number) is below \(minimum)")
            }
            if case .number(let maximum) = keywords["maximum"], number > maximum {
                found.append("\(path): \(number) is above \(maximum)")
            }
        }
        if case .string(let text) = value, case .number(let minimum) = keywords["minLength"],
            Double(text.count) < minimum
        {
            found.append("\(path): shorter than \(Int(minimum)) characters")
        }
        if case .array(let elements) = value {
            if case .number(let minimum) = keywords["minItems"], Double(elements.count) < minimum {
                found.append("\(path): fewer than \(Int(minimum)) items")
            }
            if let items = keywords["items"] {
                for (index, element) in elements.enumerated() {
                    try check(
                        element,
                        against: items,
                        schemaPath: "\(schemaPath)/items",
                        at: "\(path)[\(index)]",
                        into: &found
                    )
                }
            }
        }
        if case .object(let object) = value {
            try checkObject(object, keywords, schemaPath: schemaPath, at: path, into: &found)
        }
    }

    private func checkObject(
        _ object: [String: JSONValue],
        _ keywords: [String: JSONValue],
        schemaPath: String,
        at path: String,
        into found: inout [String]
    ) throws {
        if case .number(let minimum) = keywords["minProperties"], Double(object.count) < minimum {
            found.append("\(path): fewer than \(Int(minimum)) properties")
        }
        if case .array(let required) = keywords["required"] {
            for case .string(let name) in required where object[name] == nil {
                found.append("\(path): missing required property \(name)")
            }
        }
        var properties: [String: JSONValue] = [:]
        if case .object(let declared) = keywords["properties"] { properties = declared }
        for (name, element) in object.sorted(by: { $0.key < $1.key }) {
            if let property = properties[name] {
                try check(
                    element,
                    against: property,
                    schemaPath: "\(schemaPath)/properties/\(name)",
                    at: "\(path).\(name)",
                    into: &found
                )
            } else if let additional = keywords["additionalProperties"] {
                if case .bool(false) = additional {
                    found.append("\(path).\(name): property not allowed")
                } else {
                    try check(
                        element,
                        against: additional,
                        schemaPath: "\(schemaPath)/additionalProperties",
                        at: "\(path).\(name)",
                        into: &found
                    )
                }
            }
        }
    }

    private func resolve(_ reference: String) throws -> JSONValue {
        let prefix = "#/$defs/"
        guard reference.hasPrefix(prefix), case .object(let rootObject) = root,
            case .object(let definitions) = rootObject["$defs"],
            let target = definitions[String(reference.dropFirst(prefix.count))]
        else {
            throw UnsupportedKeyword(keyword: "$ref \(reference)", path: reference)
        }
        return target
    }

    private static func matches(_ value: JSONValue, type: JSONValue) -> Bool {
        switch type {
        case .string(let name):
            switch (name, value) {
            case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null):
                return true
            case ("number", .number):
                return true
            case ("integer", .number(let number)):
                return number == number.rounded()
            default:
                return false
            }
        case .array(let names):
            return names.contains { matches(value, type: $0) }
        default:
            return false
        }
    }
}

/// Paths of files the tests read from the repository.
enum RepositoryFiles {
    /// The repository's root, found from this file's path.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // ActuatePersonalizationTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }
}

import ActuateReporting
import Foundation

/// The rules a ``LocalDecisionSource`` decides with: content actions, and conditions that say who sees them.
///
/// Its JSON form is one object whose `actions` and `conditions` arrays are described by the JSON Schema in
/// `Sources/ActuatePersonalization/Rules/rules.schema.json`, the one schema of the whole rules file (its
/// `campaigns` and `contentBlocks` too):
///
/// ```json
/// {
///   "actions": [
///     { "id": 7, "name": "Spring banner", "contentType": "text/html", "content": "<a href=\"https://shop.example.com/spring\">Spring sale</a>" }
///   ],
///   "conditions": [
///     { "id": 1, "name": "Home page", "actions": [7], "controlGroupPercent": 10,
///       "targeting": { "documents": ["home"], "sessionCount": { "min": 2 } } }
///   ]
/// }
/// ```
///
/// The same file may hold `campaigns` and `contentBlocks` arrays for the other parts of this module; they are
/// accepted here and left to their own loaders. Any other key is a mistake.
public struct RulesFile: Sendable, Hashable {
    /// The top-level keys that belong to other parts of the module and are ignored here.
    package static let otherPartsKeys: Set<String> = ["campaigns", "contentBlocks"]

    /// The content actions, in file order.
    package var actions: [ContentAction]
    /// The conditions, in file order; earlier conditions' actions come first in a result.
    package var conditions: [RuleCondition]

    /// Creates rules in code.
    /// - Parameters:
    ///   - actions: The content actions.
    ///   - conditions: The conditions.
    package init(actions: [ContentAction], conditions: [RuleCondition]) {
        self.actions = actions
        self.conditions = conditions
    }

    /// Loads and validates a rules file.
    /// - Parameter url: The file.
    /// - Throws: ``RulesFileError`` naming the file and every problem, with its JSON path.
    package init(contentsOf url: URL) throws(RulesFileError) {
        try self.init(data: RulesFileReader.data(contentsOf: url), name: url.path)
    }

    /// Parses and validates rules.
    /// - Parameters:
    ///   - data: The JSON.
    ///   - name: What to call the data in errors, such as a file name.
    /// - Throws: ``RulesFileError`` naming `name` and every problem, with its JSON path.
    package init(data: Data, name: String) throws(RulesFileError) {
        // The parser returns nil only after reporting why, so the part call throws first.
        guard let parsed = try RulesFileReader.part(of: data, name: name, using: RulesFileParser.self) else {
            throw RulesFileError(file: name, problems: [])
        }
        self = parsed
    }

    /// Every problem in a rules file, in document order; empty when the file is valid. This is what
    /// `actuate validate RULES.json` reports.
    /// - Parameter url: The file.
    /// - Returns: The problems, each with its JSON path.
    public static func validate(contentsOf url: URL) -> [RulesFileProblem] {
        RulesFileReader.problems(contentsOf: url, validate: validate(data:))
    }

    /// Every problem in rules given as JSON, in document order; empty when they are valid.
    ///
    /// The whole file is checked: its content actions and conditions, its `campaigns` (see
    /// `CampaignRules.validateCampaigns(in:)`) and its `contentBlocks` (see
    /// `ContentBlockRules.validate(data:)`). When the data is not JSON at all, only that is reported.
    /// - Parameter data: The JSON.
    /// - Returns: The problems, each with its JSON path.
    package static func validate(data: Data) -> [RulesFileProblem] {
        let problems = RulesFileReader.problems(in: data, using: RulesFileParser.self)
        guard (try? JSONSerialization.jsonObject(with: data)) is [String: Any] else { return problems }
        return problems + CampaignRules.validateCampaigns(in: data) + ContentBlockRules.validate(data: data)
    }

    /// The problems of rules built in code: duplicate ids, conditions that name missing actions, values out of
    /// range, JSON content that is not an array of string objects.
    package var problems: [RulesFileProblem] {
        RulesFileChecks.problems(in: self)
    }
}

import Foundation
import Testing

/// The fixture `report-v1.json` with hostile text, for the timeline page's tests: every text of every entry (session,
/// feature, feature path, action, queue, input, start date, outcome message) and the report's date made 20,000 to
/// 40,000 characters long, each different and ending in its own mark, or the date alone replaced.
enum LongTextReport {
    /// A text of `length` characters for `field` of entry `index`: words with characters outside the Basic
    /// Multilingual Plane among them, then `-end-FIELD-INDEX`, so that a label cut at its start still tells which
    /// it is.
    static func text(_ field: String, _ index: Int, length: Int) -> String {
        let end = "-end-\(field)-\(index)"
        let unit = "\(field) \(index) 🙂 wörd "
        let body = String(repeating: unit, count: length / unit.count + 1)
        return String(body.prefix(length - end.count)) + end
    }

    /// Writes the report to `path` and returns the path.
    /// - Parameters:
    ///   - path: Where to write it.
    ///   - long: Whether every text is made long.
    ///   - generatedAt: The report's date; a long one when nil and `long` is set, the fixture's otherwise.
    static func write(to path: String, long: Bool, generatedAt: String? = nil) throws -> String {
        var document = try #require(
            try JSONSerialization.jsonObject(with: Fixtures.data("report-v1.json")) as? [String: Any]
        )
        var timeline = try #require(document["timeline"] as? [String: Any])
        var entries = try #require(timeline["entries"] as? [[String: Any]])
        if long {
            let fields = [
                "sessionName", "featureName", "featurePath", "actionName", "queueLabel", "inputDescription",
                "startDate",
            ]
            for index in entries.indices {
                for (number, field) in fields.enumerated() {
                    entries[index][field] = text(field, index, length: 20_000 + (index * 7 + number) * 2_003 % 20_001)
                }
                if var outcome = entries[index]["outcome"] as? [String: Any], outcome["message"] != nil {
                    outcome["message"] = text("message", index, length: 40_000)
                    entries[index]["outcome"] = outcome
                }
            }
            document["generatedAt"] = text("generatedAt", 0, length: 30_000)
        }
        if let generatedAt { document["generatedAt"] = generatedAt }
        timeline["entries"] = entries
        document["timeline"] = timeline
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: path))
        return path
    }
}

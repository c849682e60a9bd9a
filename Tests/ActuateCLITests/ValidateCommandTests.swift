import Foundation
import Testing

@Suite("actuate validate")
struct ValidateCommandTests {
    private static let shippedRules = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "Examples/Rules/personalization-rules.json"
        ).path

    @Test("the shipped example rules are valid: exit 0")
    func shippedRulesAreValid() {
        let result = runTool(["validate", Self.shippedRules])
        #expect(result.status == 0)
        #expect(result.output == "\(Self.shippedRules): valid\n")
        #expect(result.error.isEmpty)
    }

    @Test("a mistake in each part of the file is listed with its JSON path: exit 1")
    func everyPartIsChecked() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("rules.json")
        let rules = """
            {
              "version": 1,
              "actions": [{"id": "seven", "name": "Banner", "contentType": "text/html", "content": "<p>hi</p>"}],
              "conditions": [],
              "campaigns": [{"campaignId": "c1", "campaignName": "Spring"}],
              "contentBlocks": [{"id": "b1", "name": "Welcome", "placeholders": ["home"], "frequency": "sometimes"}]
            }
            """
        try Data(rules.utf8).write(to: URL(fileURLWithPath: path))
        let result = runTool(["validate", path])
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.error.hasPrefix("actuate: \(path): "))
        #expect(result.error.contains("$.actions[0].id"))
        #expect(result.error.contains("$.campaigns[0]"))
        #expect(result.error.contains("$.contentBlocks[0]"))
    }

    @Test("every part of the file is reported in one style: the same path format, wording and number quoting")
    func oneStyle() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("rules.json")
        let rules = #"""
            {
              "actions": [{"id": "seven", "contentType": "text/html", "content": "<p>hi</p>", "max uses": 1}],
              "campaigns": [{"campaignId": 7, "target": "t", "isControlGroup": "yes", "trigger": {"action": "Go"}}],
              "contentBlocks": [{"id": 7, "name": "W", "placeholders": ["home"], "html": "", "hasTrackingConsent": "yes"}]
            }
            """#
        try Data(rules.utf8).write(to: URL(fileURLWithPath: path))
        let result = runTool(["validate", path])
        #expect(result.status == 1)
        #expect(
            result.error == """
                actuate: \(path): 6 problems
                  $.actions[0].id: expected a whole number, found a string ("seven")
                  $.actions[0]["max uses"]: unknown key; expected one of content, contentType, id, name
                  $.campaigns[0].campaignId: expected a non-empty string, found a number (7)
                  $.campaigns[0].isControlGroup: expected true or false, found a string ("yes")
                  $.contentBlocks[0].id: expected a non-empty string, found a number (7)
                  $.contentBlocks[0].hasTrackingConsent: expected true or false, found a string ("yes")

                """
        )
    }

    @Test("a file that is not JSON gets one problem, a missing file and a missing argument clear errors")
    func badInputs() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("broken.json")
        try Data(#"{"actions": ["#.utf8).write(to: URL(fileURLWithPath: path))
        let broken = runTool(["validate", path])
        #expect(broken.status == 1)
        #expect(broken.error.contains("\(path): 1 problem\n"))

        let missing = runTool(["validate", scratch.path("nothing.json")])
        #expect(missing.status == 1)
        #expect(missing.error.contains("there is no such rules file"))

        let usage = runTool(["validate"])
        #expect(usage.status == 2)
        #expect(usage.error.contains("RULES.json"))
    }
}

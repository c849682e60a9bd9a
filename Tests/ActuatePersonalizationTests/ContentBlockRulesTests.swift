import Foundation
import Testing

@testable import ActuatePersonalization

@Suite("ContentBlockRules")
struct ContentBlockRulesTests {
    static let fullFile = #"""
        {
          "version": 1,
          "actions": [{ "id": 7, "name": "Banner", "contentType": "text/html", "content": "<p>hi</p>" }],
          "conditions": [],
          "campaigns": [{ "anything": "left to its own loader" }],
          "contentBlocks": [
            {
              "id": "spring-hero", "name": "Spring hero", "placeholders": ["home", "cart"],
              "html": "<img src=\"https://cdn.example.com/hero.png\"><a href=\"https://shop.example.com/spring\">Go</a>",
              "type": "banner", "priority": 10, "frequency": "onlyOnce",
              "variant": { "id": "b", "name": "Bold" }, "version": 3,
              "assets": ["https://cdn.example.com/font.woff"], "ttlSeconds": 90, "hasTrackingConsent": false
            },
            { "id": "plain", "name": "Plain", "placeholders": ["home"], "html": "<p>plain</p>" }
          ]
        }
        """#

    @Test("Reads every field of a block, applies the defaults, and leaves the other parts' keys alone")
    func readsBlocks() throws {
        let rules = try ContentBlockRules(data: Data(Self.fullFile.utf8), name: "rules.json")
        #expect(rules.blocks.count == 2)
        let hero = rules.blocks[0]
        #expect(hero.id == "spring-hero")
        #expect(hero.name == "Spring hero")
        #expect(hero.placeholders == ["home", "cart"])
        #expect(hero.type == "banner")
        #expect(hero.priority == 10)
        #expect(hero.frequency == .onlyOnce)
        #expect(hero.variant == ContentBlockVariant(id: "b", name: "Bold"))
        #expect(hero.version == 3)
        #expect(hero.assets == [URL(string: "https://cdn.example.com/font.woff")!])
        #expect(hero.timeToLive == .seconds(90))
        #expect(hero.hasTrackingConsent == false)
        #expect(!hero.tracksWithConsent)
        let plain = rules.blocks[1]
        #expect(plain.type == "html")
        #expect(plain.priority == 0)
        #expect(plain.frequency == .always)
        #expect(plain.variant == nil)
        #expect(plain.version == 0)
        #expect(plain.timeToLive == nil)
        #expect(plain.hasTrackingConsent == nil)
        #expect(plain.tracksWithConsent)
        #expect(rules.blocks(forPlaceholder: "cart").map(\.id) == ["spring-hero"])
        #expect(ContentBlockRules.validate(data: Data(Self.fullFile.utf8)).isEmpty)
    }

    @Test("A rules file without content blocks has none, and no problem")
    func missingKeyMeansNoBlocks() throws {
        let rules = try ContentBlockRules(data: Data(#"{"actions": []}"#.utf8), name: "rules.json")
        #expect(rules.blocks.isEmpty)
    }

    @Test(
        "Each kind of mistake is reported at its JSON path",
        arguments: [
            (
                #"{"id": "a", "name": "A", "placeholders": ["p"], "html": "", "frequency": "sometimes"}"#,
                "$.contentBlocks[1].frequency", "unknown frequency \"sometimes\""
            ),
            (
                #"{"id": "a", "name": "A", "placeholders": ["p"], "html": "", "frequency": "once_per_visit"}"#,
                "$.contentBlocks[1].frequency", "write \"oncePerVisit\""
            ),
            (#"{"name": "A", "placeholders": ["p"], "html": ""}"#, "$.contentBlocks[1].id", "missing"),
            (#"{"id": "ok", "name": "A", "placeholders": ["p"], "html": ""}"#, "$.contentBlocks[1].id", "duplicate id"),
            (#"{"id": "a", "name": " ", "placeholders": ["p"], "html": ""}"#, "$.contentBlocks[1].name", "empty"),
            (
                #"{"id": "a", "name": "A", "placeholders": [], "html": ""}"#, "$.contentBlocks[1].placeholders",
                "non-empty"
            ),
            (
                #"{"id": "a", "name": "A", "placeholders": [3], "html": ""}"#, "$.contentBlocks[1].placeholders[0]",
                "expected a non-empty string, found a number (3)"
            ),
            (#"{"id": "a", "name": "A", "placeholders": ["p"]}"#, "$.contentBlocks[1].html", "missing"),
            (
                #"{"id": "a", "name": "A", "placeholders": ["p"], "html": "", "priority": 1.5}"#,
                "$.contentBlocks[1].priority", "whole number"
            ),
            (
                #"{"id": "a", "name": "A", "placeholders": ["p"], "html": "", "version": -1}"#,
                "$.contentBlocks[1].version", "at least 0"
            ),
            (
                #"{"id": "a", "name": "A", "placeholders": ["p"], "html": "", "assets": ["javascript:alert(1)"]}"#,
                "$.contentBlocks[1].assets[0]", "not an http or https URL"
            ),
            (
                #"{"id": "a", "name": "A", "placeholders": ["p"], "html": "", "ttlSeconds": 0}"#,
                "$.contentBlocks[1].ttlSeconds", "from 0.001 to 31536000 (365 days), found 0"
            ),
            (
                #"{"id": "a", "name": "A", "placeholders": ["p"], "html": "", "hasTrackingConsent": "yes"}"#,
                "$.contentBlocks[1].hasTrackingConsent", "true or false"
            ),
            (
                #"{"id": "a", "name": "A", "placeholders": ["p"], "html": "", "colour": "red"}"#,
                "$.contentBlocks[1].colour", "unknown key"
            ),
            (
                #"{"id": "a", "name": "A", "placeholders": ["p"], "html": "", "variant": {"name": "x"}}"#,
                "$.contentBlocks[1].variant.id", "missing"
            ),
            (#""just a string""#, "$.contentBlocks[1]", #"expected an object, found a string ("just a string")"#),
        ]
    )
    func mistakesHavePaths(element: String, path: String, message: String) {
        let json =
            #"{"contentBlocks": [{"id": "ok", "name": "OK", "placeholders": ["p"], "html": ""}, "#
            + element + "]}"
        let problems = ContentBlockRules.validate(data: Data(json.utf8))
        #expect(problems.contains { $0.path == path && $0.message.contains(message) }, "\(problems)")
        do {
            _ = try ContentBlockRules(data: Data(json.utf8), name: "shop-rules.json")
            Issue.record("invalid rules were accepted")
        } catch {
            #expect(error.file == "shop-rules.json")
            #expect(error.problems == problems)
        }
    }

    @Test(
        "A document that is not an object with a contentBlocks array is refused at its path",
        arguments: [
            (#"{"contentBlocks": {"id": "a"}}"#, "$.contentBlocks", "expected an array"),
            (#"[1, 2]"#, "$", "expected an object"),
            (#"{"contentBlocks": [{"id": "a", "na"#, "$", "not valid JSON"),
            ("", "$", "not valid JSON"),
        ]
    )
    func malformedDocuments(json: String, path: String, message: String) {
        let problems = ContentBlockRules.validate(data: Data(json.utf8))
        #expect(problems.count == 1)
        #expect(problems.first?.path == path)
        #expect(problems.first?.message.contains(message) == true, "\(problems)")
    }

    @Test("validate(contentsOf:) reads a real file, and names an unreadable one")
    func validatesFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("rules.json")
        try Data(#"{"contentBlocks": [{"id": "a", "name": "A", "placeholders": ["p"], "html": 3}]}"#.utf8).write(
            to: file
        )
        #expect(
            ContentBlockRules.validate(contentsOf: file) == [
                RulesFileProblem(path: "$.contentBlocks[0].html", message: "expected a string, found a number (3)")
            ]
        )
        do {
            _ = try ContentBlockRules(contentsOf: file)
            Issue.record("invalid rules were accepted")
        } catch {
            #expect(error.file == file.path)
        }
        let missing = ContentBlockRules.validate(contentsOf: directory.appendingPathComponent("absent.json"))
        #expect(missing.count == 1)
        #expect(missing.first?.message.contains("cannot be read") == true)
    }
}

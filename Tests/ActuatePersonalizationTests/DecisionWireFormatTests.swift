import Foundation
import Testing

@testable import ActuatePersonalization

@Suite("A decision server's answer goes through the rules reader")
struct DecisionWireFormatTests {
    /// The problems of `document` read as a decision answer, or nil when it was accepted.
    private func answerProblems(_ document: String) -> [RulesFileProblem]? {
        do {
            _ = try DecisionWireFormat.decode(Data(document.utf8))
            return nil
        } catch {
            guard case .invalidResponse(let invalid) = error else {
                Issue.record("unexpected error \(error)")
                return []
            }
            #expect(invalid.file == DecisionWireFormat.answerName)
            return invalid.problems
        }
    }

    @Test(
        "an action a rules file refuses is refused in an answer with the same problems",
        arguments: [
            #"{"actions": [{"id": 7, "name": "Banner", "content": "<p>x</p>"}]}"#,
            #"{"actions": [{"id": 7, "contentType": "text/html"}]}"#,
            #"{"actions": [{"contentType": "text/html", "content": "<p>x</p>"}]}"#,
            #"{"actions": [{"id": "7", "contentType": 3, "content": "<p>x</p>"}]}"#,
            #"{"actions": [{"id": 1.5, "contentType": "text/html", "content": "<p>x</p>"}]}"#,
            #"{"actions": [{"id": 7, "contentType": " ", "content": ""}]}"#,
            #"{"actions": [{"id": 7, "contentType": "application/json", "content": "{}"}]}"#,
            #"{"actions": [{"id": 7, "contentType": "text/html", "content": "a"}, "#
                + #"{"id": 7, "contentType": "text/html", "content": "b"}]}"#,
            #"{"actions": {"id": 7}}"#,
            #"{"actions": [{"id": 7, "contentType": "text/html", "content": "<p>cut"#,
        ]
    )
    func sameProblemsAsAFile(document: String) throws {
        let fileProblems = RulesFile.validate(data: Data(document.utf8))
        try #require(!fileProblems.isEmpty, "the file reader accepts \(document)")
        #expect(answerProblems(document) == fileProblems)
    }

    @Test("an answer without contentType is refused with the error a rules file gives, at the same path")
    func missingContentType() throws {
        let document = #"{"conditions": [], "actions": [{"id": 7, "name": "Banner", "content": "<p>x</p>"}]}"#
        let fileError = #expect(throws: RulesFileError.self) {
            try RulesFile(data: Data(document.utf8), name: DecisionWireFormat.answerName)
        }
        #expect(
            throws: DecisionSourceError.invalidResponse(try #require(fileError))
        ) { try DecisionWireFormat.decode(Data(document.utf8)) }
        #expect(
            fileError?.problems.map(\.description) == ["$.actions[0].contentType: missing; expected a string"]
        )
    }

    @Test("an answer may carry keys of its own, which a rules file may not; conditions default to no control group")
    func extraKeysAndConditions() throws {
        let document = #"""
            {"conditions": [{"id": 1, "name": "All", "score": 3}, {"id": 2, "isControlGroup": true}],
             "actions": [{"id": 7, "contentType": "text/html", "content": "<p>x</p>", "priority": 2}],
             "requestId": "r-1"}
            """#
        let result = try DecisionWireFormat.decode(Data(document.utf8))
        #expect(
            result.conditions == [
                TrackerCondition(id: 1, name: "All"), TrackerCondition(id: 2, isControlGroup: true),
            ]
        )
        #expect(result.actions == [ContentAction(id: 7, contentType: "text/html", content: "<p>x</p>")])
        #expect(!RulesFile.validate(data: Data(document.utf8)).isEmpty, "a file is held to its keys")
    }

    @Test("a condition of an answer is read at its path: id required, isControlGroup true or false")
    func conditionProblems() {
        let document = #"""
            {"conditions": [{"name": "No id"}, {"id": 2, "isControlGroup": "yes"}], "actions": []}
            """#
        #expect(
            answerProblems(document)?.map(\.description) == [
                "$.conditions[0].id: missing; expected a whole number",
                #"$.conditions[1].isControlGroup: expected true or false, found a string ("yes")"#,
            ]
        )
    }

    @Test("an answer without actions, or that is not an object, is refused at its root")
    func rootProblems() {
        #expect(answerProblems(#"{"conditions": []}"#)?.map(\.description) == ["$.actions: missing; expected an array"])
        #expect(answerProblems("[]")?.map(\.description) == ["$: expected an object, found an array"])
        #expect(answerProblems("")?.first?.description.hasPrefix("$: not valid JSON") == true)
    }
}

import Testing

@testable import ActuatePersonalization

@Suite("RulesFileError")
struct RulesFileErrorTests {
    @Test("The description names the file and every problem with its path")
    func descriptionListsProblems() {
        let error = RulesFileError(
            file: "rules.json",
            problems: [
                RulesFileProblem(path: "$.actions[0].id", message: "expected an integer, found a string"),
                RulesFileProblem(path: "$.actions[2]", message: "duplicate id 7"),
            ]
        )
        #expect(
            error.description
                == "rules.json: 2 problems\n  $.actions[0].id: expected an integer, found a string\n  $.actions[2]: duplicate id 7"
        )
    }
}

import Foundation

/// One thing wrong with a rules file, at a JSON path such as `$.actions[3].contentType`.
public struct RulesFileProblem: Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is, as a JSON path from the document's root (`$`).
    package var path: String
    /// What is wrong, in words a person can act on.
    package var message: String

    /// Creates a problem.
    package init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

/// A rules file that could not be used, with every problem found in it.
public struct RulesFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, or a name for the data when it did not come from a file.
    package var file: String
    /// Every problem found, in document order.
    package var problems: [RulesFileProblem]

    /// Creates an error.
    package init(file: String, problems: [RulesFileProblem]) {
        self.file = file
        self.problems = problems
    }

    public var description: String {
        let noun = problems.count == 1 ? "problem" : "problems"
        return "\(file): \(problems.count) \(noun)\n" + problems.map { "  \($0)" }.joined(separator: "\n")
    }
}

import Foundation

/// A parser of one part of a rules file (its actions and conditions, its campaigns, its content blocks) that
/// collects every problem with its JSON path instead of stopping at the first.
protocol RulesFilePartParser {
    /// What the parser reads from a file.
    associatedtype Part

    /// The problems found so far, each with its JSON path.
    var problems: [RulesFileProblem] { get }

    /// Creates a parser that has found no problems.
    init()

    /// Reads the part from a whole rules file, adding to ``problems`` what is wrong with it.
    mutating func parse(_ data: Data) -> Part
}

extension RulesFileParser: RulesFilePartParser {}
extension CampaignRulesParser: RulesFilePartParser {}
extension ContentBlockRulesParser: RulesFilePartParser {}

/// What the loaders of a rules file's parts share: reading the file, and turning a parser's problems into a
/// ``RulesFileError``.
enum RulesFileReader {
    /// The bytes of a rules file.
    /// - Parameter url: The file.
    /// - Returns: Its contents.
    /// - Throws: ``RulesFileError`` naming the file, with one problem at `$` when it cannot be read.
    static func data(contentsOf url: URL) throws(RulesFileError) -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw RulesFileError(file: url.path, problems: [unreadable(error)])
        }
    }

    /// The problems `validate` finds in a rules file, or the one problem that it cannot be read.
    /// - Parameters:
    ///   - url: The file.
    ///   - validate: What finds the problems in the file's bytes.
    /// - Returns: The problems, each with its JSON path.
    static func problems(contentsOf url: URL, validate: (Data) -> [RulesFileProblem]) -> [RulesFileProblem] {
        do {
            return validate(try Data(contentsOf: url))
        } catch {
            return [unreadable(error)]
        }
    }

    /// The part a parser reads from a rules file, when the parser finds no problem with it.
    /// - Parameters:
    ///   - data: The whole rules file.
    ///   - name: What to call the data in errors.
    ///   - parser: The parser of the part.
    /// - Returns: The part.
    /// - Throws: ``RulesFileError`` naming `name` and every problem the parser found.
    static func part<Parser: RulesFilePartParser>(
        of data: Data,
        name: String,
        using parser: Parser.Type
    ) throws(RulesFileError) -> Parser.Part {
        var parser = Parser()
        let part = parser.parse(data)
        guard parser.problems.isEmpty else {
            throw RulesFileError(file: name, problems: parser.problems)
        }
        return part
    }

    /// Every problem a parser finds in a rules file; empty when its part is valid.
    /// - Parameters:
    ///   - data: The whole rules file.
    ///   - parser: The parser of the part.
    /// - Returns: The problems, each with its JSON path.
    static func problems<Parser: RulesFilePartParser>(in data: Data, using parser: Parser.Type) -> [RulesFileProblem] {
        var parser = Parser()
        _ = parser.parse(data)
        return parser.problems
    }

    private static func unreadable(_ error: any Error) -> RulesFileProblem {
        RulesFileProblem(path: "$", message: "the file cannot be read: \(error.localizedDescription)")
    }
}

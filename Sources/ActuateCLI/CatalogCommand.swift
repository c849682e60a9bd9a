import Actuate
import Foundation

/// `actuate catalog [FILE | -] [--json]`.
enum CatalogCommand {
    static func run(_ arguments: [String], io: any ToolIO) throws {
        let parsed = try CommandLineArguments(arguments, command: "catalog", flags: ["--json"])
        if parsed.wantsHelp {
            io.write(HelpText.catalog)
            return
        }
        guard parsed.positionals.count <= 1 else {
            throw ToolError.usage("unexpected argument \"\(parsed.positionals[1])\" after FILE", command: "catalog")
        }
        let source = parsed.positionals.first ?? "-"
        let data: Data
        if source == "-" {
            guard !io.standardInputIsTerminal else {
                throw ToolError.usage(
                    "give a catalog file, or pipe one in: swift run shop-demo --catalog-json | actuate catalog",
                    command: "catalog"
                )
            }
            do {
                data = try io.readStandardInput()
            } catch {
                throw ToolError.failure("cannot read standard input: \(error)")
            }
        } else {
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: source))
            } catch {
                throw ToolError.failure(
                    "cannot read the catalog \(source): \(FileProblem.describe(error, path: source))"
                )
            }
        }
        let name = source == "-" ? "standard input" : source
        guard !data.isEmpty else { throw ToolError.failure("\(name) is empty: there is no catalog to read") }
        let catalog: ActionCatalog
        do {
            catalog = try ActionCatalog.decode(from: data)
        } catch {
            throw ToolError.failure("\(name): \(error.description)")
        }
        if parsed.flags.contains("--json") {
            io.write(String(decoding: try catalog.jsonData(), as: UTF8.self) + "\n")
        } else {
            io.write(TerminalText.escapedKeepingLines(catalog.markdown()))
        }
    }
}

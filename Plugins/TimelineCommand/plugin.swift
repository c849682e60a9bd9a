import Foundation
import PackagePlugin

/// `swift package timeline REPORT.json`: builds the `actuate` tool and writes the debug report's timeline as
/// a self-contained HTML page.
@main
struct TimelineCommand: CommandPlugin {
    static let help = """
        Usage: swift package timeline REPORT.json [--output OUT.html]

        Builds the actuate tool and runs `actuate dump REPORT.json --html OUT.html`: one self-contained page
        that draws the timeline (a lane per session and queue, a bar per action, failures in red; hover or
        click a bar for its details). Relative paths are taken from the package directory.

          --output OUT.html   Where to write the page; by default next to the report, with .html in place of
                              .json (debug-report.json gives debug-report.html).
          --help              Show this help.

        """

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        if extractor.extractFlag(named: "help") > 0 {
            print(Self.help, terminator: "")
            return
        }
        let output = extractor.extractOption(named: "output").last
        let positionals = extractor.remainingArguments
        guard positionals.count == 1, let reportPath = positionals.first else {
            throw PluginFailure(
                positionals.isEmpty
                    ? "REPORT.json is missing; usage: swift package timeline REPORT.json [--output OUT.html]"
                    : "give one report, not \(positionals.count); see --help"
            )
        }
        let base = context.package.directoryURL
        let report = Self.resolve(reportPath, against: base)
        let page =
            output.map { Self.resolve($0, against: base) }
            ?? report.deletingPathExtension().appendingPathExtension("html")

        let build = try packageManager.build(
            .product("actuate"),
            parameters: PackageManager.BuildParameters(configuration: .debug, logging: .concise)
        )
        guard build.succeeded else {
            throw PluginFailure("building actuate failed:\n\(build.logText)")
        }
        guard let tool = build.builtArtifacts.first(where: { $0.kind == .executable }) else {
            throw PluginFailure("building actuate produced no executable")
        }
        let process = Process()
        process.executableURL = tool.url
        process.arguments = ["dump", report.path, "--html", page.path]
        let printed = Pipe()
        let errors = Pipe()
        process.standardOutput = printed
        process.standardError = errors
        try process.run()
        let written = printed.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw PluginFailure(
                text.hasPrefix("actuate: ") ? String(text.dropFirst("actuate: ".count)) : "actuate dump failed: \(text)"
            )
        }
        print(String(decoding: written, as: UTF8.self), terminator: "")
    }

    private static func resolve(_ path: String, against base: URL) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path)
    }
}

/// A failure with a message for people.
struct PluginFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

import Foundation
import PackagePlugin

/// `swift package timeline REPORT.json`: builds the `actuate` tool and writes the debug report's timeline as
/// a self-contained HTML page.
///
/// It declares no permission to write to the package directory, which SwiftPM's sandbox keeps read-only to
/// command plugins and the processes they start on macOS. So a page that would land inside the package goes to
/// the plugin's work directory instead, and an `--output` inside the package is refused; either way the page's
/// path is printed.
@main
struct TimelineCommand: CommandPlugin {
    static let help = """
        Usage: swift package timeline REPORT.json [--output OUT.html]

        Builds the actuate tool and runs `actuate dump REPORT.json --html OUT.html`: one self-contained page
        that draws the timeline (a lane per session and queue, a bar per action, failures in red; hover or
        click a bar for its details). Relative paths are taken from the package directory. Prints the page's
        path.

          --output OUT.html   Where to write the page, outside the package directory; by default next to the
                              report, with .html in place of .json (debug-report.json gives
                              debug-report.html), or in the plugin's work directory when the report is
                              inside the package: on macOS, SwiftPM's sandbox keeps the package directory
                              read-only to plugins, and this plugin asks no permission to write there.
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
        let page: URL
        if let output {
            page = Self.resolve(output, against: base)
            guard !Self.isInside(page, base) else {
                throw PluginFailure(
                    "--output \(output) is inside the package directory, which SwiftPM's sandbox keeps read-only to "
                        + "plugins on macOS; give a path outside it, or leave --output out to use the plugin's work "
                        + "directory"
                )
            }
        } else {
            let besideReport = report.deletingPathExtension().appendingPathExtension("html")
            page =
                Self.isInside(besideReport, base)
                ? context.pluginWorkDirectoryURL.appendingPathComponent(besideReport.lastPathComponent)
                : besideReport
        }

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
        print("timeline page: \(page.path)")
    }

    /// Whether `url` is `directory` or lies under it, once both are standardized and symbolic links resolved.
    private static func isInside(_ url: URL, _ directory: URL) -> Bool {
        let path = url.standardizedFileURL.resolvingSymlinksInPath().path
        let root = directory.standardizedFileURL.resolvingSymlinksInPath().path
        return path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
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

import Foundation
import PackagePlugin

/// `swift package action-catalog`: builds an executable product, runs it with `--catalog`, and prints the
/// Markdown catalog of its features and actions, or writes it to `ACTIONS.md` with `--write`.
///
/// The product must print its catalog when given `--catalog` (Markdown) and `--catalog-json` (JSON), for
/// example with `ActionCatalog(group: AppFeatures.self).markdown()`, as `shop-demo` does.
@main
struct ActionCatalogCommand: CommandPlugin {
    static let help = """
        Usage: swift package action-catalog [--product NAME] [--json] [--write] [--output PATH]

        Builds the executable product NAME (shop-demo by default), runs it with --catalog, and prints the
        catalog of its features and actions: input, presenter, queue, analytics ID, activity eligibility,
        URL routes and constraints, taken from the registered feature group at run time.

          --product NAME   The executable product to build and run.
          --json           The JSON catalog (the input of `actuate catalog`) instead of Markdown.
          --write          Write the catalog to ACTIONS.md (ACTIONS.json with --json) in the package directory
                           instead of printing it. Needs the permission to write to the package directory:
                           swift package --allow-writing-to-package-directory action-catalog --write
          --output PATH    Write to PATH (relative to the package directory) instead; implies --write.
          --help           Show this help.

        """

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        if extractor.extractFlag(named: "help") > 0 {
            print(Self.help, terminator: "")
            return
        }
        let product = extractor.extractOption(named: "product").last ?? "shop-demo"
        let json = extractor.extractFlag(named: "json") > 0
        let output = extractor.extractOption(named: "output").last
        let write = extractor.extractFlag(named: "write") > 0 || output != nil
        guard extractor.remainingArguments.isEmpty else {
            throw PluginFailure("unexpected arguments \(extractor.remainingArguments); see --help")
        }
        guard context.package.products.contains(where: { $0.name == product && $0 is ExecutableProduct }) else {
            let executables = context.package.products.filter { $0 is ExecutableProduct }.map(\.name)
            throw PluginFailure(
                "there is no executable product \"\(product)\"; choose one of: \(executables.joined(separator: ", "))"
            )
        }

        let build = try packageManager.build(
            .product(product),
            parameters: PackageManager.BuildParameters(configuration: .debug, logging: .concise)
        )
        guard build.succeeded else {
            throw PluginFailure("building \(product) failed:\n\(build.logText)")
        }
        guard let executable = build.builtArtifacts.first(where: { $0.kind == .executable }) else {
            throw PluginFailure("building \(product) produced no executable")
        }
        let catalog = try PluginProcess.run(executable.url, [json ? "--catalog-json" : "--catalog"])

        guard write else {
            print(catalog, terminator: "")
            return
        }
        let path = output ?? (json ? "ACTIONS.json" : "ACTIONS.md")
        let destination =
            path.hasPrefix("/")
            ? URL(fileURLWithPath: path) : context.package.directoryURL.appendingPathComponent(path)
        do {
            try Data(catalog.utf8).write(to: destination, options: .atomic)
        } catch {
            throw PluginFailure("cannot write \(destination.path): \(error.localizedDescription)")
        }
        print("Wrote the action catalog of \(product) to \(destination.path)")
    }
}

/// A failure with a message for people.
struct PluginFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Runs a built program and returns what it printed.
enum PluginProcess {
    static func run(_ executable: URL, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let errorReader = Thread {
            _ = error.fileHandleForReading.readDataToEndOfFile()
        }
        errorReader.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PluginFailure(
                "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) exited with status "
                    + "\(process.terminationStatus); does it support \(arguments.first ?? "")?"
            )
        }
        return String(decoding: data, as: UTF8.self)
    }
}

import ActuateTestSupport
import Foundation

/// Type-checks Swift files as one module that imports the modules this build made, with the toolchain's `swiftc`.
enum SwiftTypeChecker {
    struct Result {
        var status: Int32
        var diagnostics: String
    }

    /// Writes `files` to a new directory and runs `swiftc -typecheck` on them.
    ///
    /// - Parameter files: File name to contents; a `main.swift` holds top-level code.
    /// - Returns: The compiler's exit status and what it printed.
    static func typeCheck(_ files: [String: String]) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("actuate-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for (name, contents) in files.sorted(by: { $0.key < $1.key }) {
            let url = directory.appendingPathComponent(name)
            try contents.write(to: url, atomically: true, encoding: .utf8)
            paths.append(url.path)
        }
        let modules = try ChildProcessIO.builtExecutable(named: "actuate")
            .deletingLastPathComponent().appendingPathComponent("Modules")
        let compiler = try swiftc()
        let result = try await ChildProcess.run(
            compiler,
            ["-typecheck", "-swift-version", "6", "-module-name", "ReadmeApp", "-I", modules.path] + paths
        )
        let diagnostics = (result.error + result.outputText).replacingOccurrences(of: directory.path + "/", with: "")
        return Result(status: result.status, diagnostics: diagnostics)
    }

    /// The `swiftc` of the toolchain that runs the tests: on `PATH`, or beside `swift` in `/opt/swift`.
    private static func swiftc() throws -> URL {
        if let found = ChildProcess.onPath("swiftc") { return found }
        let fallback = URL(fileURLWithPath: "/opt/swift/usr/bin/swiftc")
        guard FileManager.default.isExecutableFile(atPath: fallback.path) else {
            throw CocoaError(
                .fileNoSuchFile,
                userInfo: [NSFilePathErrorKey: "swiftc, on PATH or in /opt/swift/usr/bin"]
            )
        }
        return fallback
    }
}

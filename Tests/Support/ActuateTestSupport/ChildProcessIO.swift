import Foundation

/// Finding programs and reading the output of the child processes the tests start.
package enum ChildProcessIO {
    /// The first executable file called `name` in the directories of `PATH`.
    ///
    /// - Parameter name: The program's file name, such as `python3`.
    /// - Returns: Its URL, or `nil` when no directory of `PATH` holds an executable of that name.
    package static func findOnPath(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// An executable that SwiftPM built next to the test bundle, such as the package's `actuate` tool.
    ///
    /// - Parameter name: The executable's file name.
    /// - Returns: Its URL in the build folder.
    /// - Throws: `CocoaError(.fileNoSuchFile)` naming the folders searched when none holds it.
    package static func builtExecutable(named name: String) throws -> URL {
        var directories: [URL] = []
        if let executable = Bundle.main.executableURL { directories.append(executable.deletingLastPathComponent()) }
        directories.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        for directory in directories {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "\(name) near \(directories)"])
    }

    /// Reads until the first newline or end of file, off the cooperative thread pool.
    ///
    /// - Parameter handle: The reading end of a child's output pipe.
    /// - Returns: The first line, without its newline (empty when the child wrote nothing).
    package static func readFirstLine(_ handle: FileHandle) async -> String {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var bytes = Data()
                while !bytes.contains(UInt8(ascii: "\n")) {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    bytes.append(chunk)
                }
                let text = String(decoding: bytes, as: UTF8.self)
                continuation.resume(returning: String(text.split(separator: "\n").first ?? ""))
            }
        }
    }

    /// Reads everything until end of file, off the cooperative thread pool.
    ///
    /// - Parameter handle: The reading end of a child's output pipe.
    /// - Returns: All the bytes read (empty when reading failed).
    package static func readToEnd(_ handle: FileHandle) async -> Data {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: (try? handle.readToEnd()) ?? Data())
            }
        }
    }
}

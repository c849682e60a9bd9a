import Foundation

/// A directory unique to one test, deleted when the value is released.
final class TemporaryDirectory: Sendable {
    /// The directory; it does not exist until someone creates it.
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appending(path: "actuate-store-\(UUID().uuidString)")
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A path inside the directory.
    func appending(_ component: String) -> URL {
        url.appending(path: component)
    }

    /// The segment files of a store in `directory`, oldest first.
    static func segments(in directory: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix("segment-") && $0.hasSuffix(".journal") }
            .sorted()
            .map { directory.appending(path: $0) }
    }

    /// Copies the journal files of `source` into a new directory `destination`, as a crash would leave them.
    static func copyFiles(of source: URL, to destination: URL) throws {
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) where name.hasSuffix(".journal") {
            try FileManager.default.copyItem(at: source.appending(path: name), to: destination.appending(path: name))
        }
    }
}

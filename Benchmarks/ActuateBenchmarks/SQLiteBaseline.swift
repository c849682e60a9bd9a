import Foundation

/// Runs `Benchmarks/sqlite_baseline.py`, Python's `sqlite3` inserting the same events, as a baseline.
enum SQLiteBaseline {
    /// The `PRAGMA synchronous` setting that matches a journal durability mode.
    enum Synchronous: String {
        case full = "FULL"
        case normal = "NORMAL"
    }

    private struct Output: Decodable {
        var samples: [Double]
        var sqlite_version: String
    }

    /// Inserts the events once, each in its own transaction, into a fresh database, and returns events per
    /// second and the SQLite version. One call is one round, so that rounds interleave with the journal's.
    static func insertRate(of eventsJSONLines: URL, synchronous: Synchronous) throws -> (rate: Double, version: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", try scriptURL().path, eventsJSONLines.path, synchronous.rawValue,
            "0", "1",
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkFailure("sqlite_baseline.py exited with status \(process.terminationStatus)")
        }
        let decoded = try JSONDecoder().decode(Output.self, from: data)
        guard let rate = decoded.samples.first else { throw BenchmarkFailure("sqlite_baseline.py measured nothing") }
        return (rate, decoded.sqlite_version)
    }

    private static func scriptURL() throws -> URL {
        let besideSources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "sqlite_baseline.py")
        let candidates = [besideSources, URL(fileURLWithPath: "Benchmarks/sqlite_baseline.py")]
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw BenchmarkFailure("sqlite_baseline.py not found at \(candidates.map(\.path))")
        }
        return found
    }
}

/// A benchmark that could not run.
struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

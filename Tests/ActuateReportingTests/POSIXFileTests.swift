import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ActuateReporting

@Suite("POSIX file reads")
struct POSIXFileTests {
    @Test("empty reads from several threads at once return nothing and touch no shared storage")
    func concurrentEmptyReads() throws {
        // Store recovery reads every file, the usually empty dead-letter file included, and stores recover in
        // parallel. An empty read once wrote its count into the runtime's shared empty-array storage: the Thread
        // Sanitizer (`.ci/sanitizers thread`) reported it as a race between two recoveries.
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let path = directory.appending("empty").path
        let descriptor = try POSIXFile.open(path, create: true)
        defer { close(descriptor) }
        let totals = Mutex([Int](repeating: 0, count: 4))
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            var total = 0
            for _ in 0..<200 {
                total += (try? POSIXFile.readAll(descriptor, path: path))?.count ?? 1
            }
            totals.withLock { $0[thread] = total }
        }
        #expect(totals.withLock { $0 } == [0, 0, 0, 0])
        #expect(try POSIXFile.read(descriptor, at: 0, count: 0, path: path) == [])
    }
}

import Foundation
import Synchronization
import Testing

@testable import ActuateReporting

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The rule behind `DurabilityMode.synced` on Darwin (`fcntl(F_FULLFSYNC)`, falling back to `fsync` where the file
/// system refuses it), run here with stand-in calls for the two syncs.
@Suite("Durable sync: the full sync, and the fallback when it is refused")
struct DurableSyncTests {
    /// Which stand-in syncs ran, in order.
    private final class Calls: Sendable {
        let names = Mutex<[String]>([])
        func record(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }
    }

    @Test("a full sync that succeeds is the whole sync: no fallback")
    func fullSyncSucceeds() {
        let calls = Calls()
        let result = DurableSync.sync(
            7,
            full: { descriptor in
                calls.record("full \(descriptor)")
                return 0
            },
            fallback: { _ in
                calls.record("fallback")
                return 0
            }
        )
        #expect(result == 0)
        #expect(calls.all == ["full 7"])
    }

    @Test("a file system that refuses the full sync gets the ordinary one", arguments: [ENOTSUP, EINVAL, ENOTTY])
    func refusedFullSyncFallsBack(refusal: Int32) {
        let calls = Calls()
        let result = DurableSync.sync(
            7,
            full: { _ in
                calls.record("full")
                errno = refusal
                return -1
            },
            fallback: { descriptor in
                calls.record("fallback \(descriptor)")
                return 0
            }
        )
        #expect(result == 0)
        #expect(calls.all == ["full", "fallback 7"])
    }

    @Test("the fallback's own failure is the result, with its errno")
    func fallbackFailureIsReported() {
        let result = DurableSync.sync(
            7,
            full: { _ in
                errno = ENOTSUP
                return -1
            },
            fallback: { _ in
                errno = EIO
                return -1
            }
        )
        let error = errno
        #expect(result == -1)
        #expect(error == EIO)
    }

    @Test("an interrupted full sync is returned for the caller to retry, not weakened to the fallback")
    func interruptedFullSyncIsNotWeakened() {
        let calls = Calls()
        let result = DurableSync.sync(
            7,
            full: { _ in
                calls.record("full")
                errno = EINTR
                return -1
            },
            fallback: { _ in
                calls.record("fallback")
                return 0
            }
        )
        let error = errno
        #expect(result == -1)
        #expect(error == EINTR)
        #expect(calls.all == ["full"])
    }

    @Test("the platform's sync makes a real file's writes durable (fdatasync here; F_FULLFSYNC on Darwin)")
    func platformSyncOnARealFile() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let path = directory.appending("synced").path
        let descriptor = try POSIXFile.open(path, create: true)
        defer { close(descriptor) }
        let bytes: [UInt8] = Array("event".utf8)
        #expect(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
        #expect(journalDataSync(descriptor) == 0)
        #expect(journalFileSync(descriptor) == 0)
        #expect(try POSIXFile.readAll(descriptor, path: path) == bytes)
    }
}

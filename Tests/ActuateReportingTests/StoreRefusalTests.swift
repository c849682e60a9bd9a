import ActuateTesting
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins
@testable import ActuateReporting

// A file event store never follows a symbolic link and never keeps events in a directory that someone else can
// write to. Each case is set up on real files: a link in place of a store file points to a file outside the
// store holding a line of text, and after the store refused to open, that file is byte for byte as it was.

@Suite("FileEventStore refuses links and unsafe directories")
struct StoreRefusalTests {
    private static var victimText: Data { Data("a line of text that must survive\n".utf8) }

    private static func configuration() -> FileEventStoreConfiguration {
        FileEventStoreConfiguration(durability: .synced, segmentSize: 4096, maxTotalBytes: 1 << 20)
    }

    /// A store directory (0700) holding one closed store with two events, and a file outside it.
    private static func setUp() throws -> (directory: TemporaryDirectory, store: URL, victim: URL) {
        let directory = TemporaryDirectory()
        let store = directory.appending("events")
        let opened = try FileEventStore(directory: store, configuration: configuration())
        for event in StoreTestEvents.events(0..<2) { try opened.append(event) }
        try opened.close()
        let victim = directory.appending("victim.txt")
        try victimText.write(to: victim)
        return (directory, store, victim)
    }

    /// Opens the store and returns the refusal it throws.
    private static func refusal(opening store: URL) -> (path: String, reason: String)? {
        do {
            let opened = try FileEventStore(directory: store, configuration: configuration())
            try? opened.close()
            Issue.record("the store opened")
            return nil
        } catch EventStoreError.unsafeFile(let path, let reason) {
            return (path, reason)
        } catch {
            Issue.record("expected unsafeFile, got \(error)")
            return nil
        }
    }

    @Test(
        "a store file that is a link to another file is refused and the other file is left untouched",
        arguments: ["segment-00000000000000ff.journal", "dead-letters.journal", "lock"]
    )
    func linkedStoreFile(name: String) throws {
        let (directory, store, victim) = try Self.setUp()
        let link = store.appending(path: name)
        try? FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim)

        let refusal = try #require(Self.refusal(opening: store))
        #expect(refusal.path == link.path)
        #expect(refusal.reason.contains("symbolic link"))
        #expect(
            EventStoreError.unsafeFile(path: refusal.path, reason: refusal.reason).description
                == "The event store refuses \(link.path): \(refusal.reason)."
        )
        #expect(try Data(contentsOf: victim) == Self.victimText, "the linked file is unchanged")
        var info = stat()
        #expect(
            lstat(link.path, &info) == 0 && info.st_mode & mode_t(S_IFMT) == mode_t(S_IFLNK),
            "the link itself is left"
        )
        withExtendedLifetime(directory) {}
    }

    @Test("a dangling link in place of the dead-letter file is refused and nothing is created where it points")
    func danglingLink() throws {
        let (directory, store, _) = try Self.setUp()
        let link = store.appending(path: "dead-letters.journal")
        let target = directory.appending("created-by-the-store")
        try FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect(Self.refusal(opening: store)?.path == link.path)
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test("a store directory writable by its group or by others is refused", arguments: [0o777, 0o770, 0o702])
    func writableDirectory(mode: Int) throws {
        let (directory, store, _) = try Self.setUp()
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: store.path)
        let refusal = try #require(Self.refusal(opening: store))
        #expect(refusal.path == store.path)
        #expect(refusal.reason.contains("writable by its group or by others"))
        #expect(refusal.reason.contains(String(mode, radix: 8)))

        // Made owner-only again, the same directory opens with its events.
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: store.path)
        let opened = try FileEventStore(directory: store, configuration: Self.configuration())
        #expect(try opened.count() == 2)
        try opened.close()
        withExtendedLifetime(directory) {}
    }

    @Test("a store directory that is itself a link is refused")
    func linkedDirectory() throws {
        let (directory, store, _) = try Self.setUp()
        let link = directory.appending("linked-events")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: store)
        let refusal = try #require(Self.refusal(opening: link))
        #expect(refusal.path == link.path)
        #expect(refusal.reason.contains("symbolic link"))
    }

    @Test("a directory in place of a segment is refused, not read")
    func directoryInPlaceOfSegment() throws {
        let (directory, store, _) = try Self.setUp()
        let name = store.appending(path: "segment-00000000000000ff.journal")
        try FileManager.default.createDirectory(at: name, withIntermediateDirectories: false)
        let refusal = try #require(Self.refusal(opening: store))
        #expect(refusal.path == name.path)
        #expect(refusal.reason == "it is not a regular file")
        withExtendedLifetime(directory) {}
    }
}

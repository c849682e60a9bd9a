import ActuateTesting
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins
@testable import ActuateReporting

// Events and identities are private data: every file the reporting layer creates must be readable and writable by
// its owner only (0600), and every directory it creates must be usable by its owner only (0700). Checked with
// stat(2) on real files in a temporary directory.

@Suite("Store files are owner-only")
struct StoreFilePermissionsTests {
    /// The permission bits of `url`.
    private static func permissions(_ url: URL) throws -> Int {
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        return Int(info.st_mode) & 0o777
    }

    @Test(
        "journal segments, the dead-letter journal and the lock file are 0600; the directories the store creates 0700"
    )
    func eventStoreFiles() throws {
        let directory = TemporaryDirectory()
        let parent = directory.appending("application-support")
        let storeDirectory = parent.appending(path: "events")
        // Group commit on a scheduler that never fires: the files are written by the explicit flush, with one
        // sync instead of one per append.
        let configuration = FileEventStoreConfiguration(
            durability: .groupCommit(interval: .seconds(3_600)),
            segmentSize: 4096,
            maxTotalBytes: 1 << 20,
            scheduler: TestScheduler()
        )
        let store = try FileEventStore(directory: storeDirectory, configuration: configuration)
        let events = StoreTestEvents.events(0..<80)
        for event in events { try store.append(event) }
        try store.moveToDeadLetter(ids: [events[0].id], reason: "refused")
        try store.remove(ids: [events[1].id])
        try store.flush()

        let names = try FileManager.default.contentsOfDirectory(atPath: storeDirectory.path).sorted()
        #expect(names.filter { $0.hasPrefix("segment-") && $0.hasSuffix(".journal") }.count > 1)
        #expect(names.contains("dead-letters.journal"))
        #expect(names.contains("lock"))
        for name in names {
            #expect(try Self.permissions(storeDirectory.appending(path: name)) == 0o600, "\(name)")
        }
        #expect(try Self.permissions(storeDirectory) == 0o700)
        #expect(try Self.permissions(parent) == 0o700)

        // Reopening (recovery may cut, rewrite and create files) keeps every file owner-only.
        try store.close()
        let reopened = try FileEventStore(directory: storeDirectory, configuration: configuration)
        try reopened.append(StoreTestEvents.event(at: 1_000))
        try reopened.close()
        for name in try FileManager.default.contentsOfDirectory(atPath: storeDirectory.path) {
            #expect(try Self.permissions(storeDirectory.appending(path: name)) == 0o600, "\(name) after reopening")
        }
    }

    @Test("the identity file is 0600, also after it is replaced, and the directory it creates 0700")
    func identityFiles() throws {
        let directory = TemporaryDirectory()
        let identityDirectory = directory.appending("support").appending(path: "identity")
        let storage = FileIdentityStorage(directory: identityDirectory)
        // The first launch creates and saves an anonymous id.
        let identity = Identity(storage: storage)
        #expect(identity.loadError == nil)
        #expect(try Self.permissions(storage.fileURL) == 0o600)
        #expect(try Self.permissions(identityDirectory) == 0o700)
        #expect(try Self.permissions(identityDirectory.deletingLastPathComponent()) == 0o700)

        try identity.identify(userID: "user-7")
        #expect(try storage.load()?.userID == "user-7")
        #expect(try Self.permissions(storage.fileURL) == 0o600)
        let names = try FileManager.default.contentsOfDirectory(atPath: identityDirectory.path)
        #expect(names == [storage.fileURL.lastPathComponent], "no temporary file is left behind")
    }
}

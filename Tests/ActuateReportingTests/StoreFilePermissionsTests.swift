import ActuateTesting
import Foundation
import Synchronization
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

    /// What the owner-only writer saw of its temporary files, for ``identityFileNeverWider()``.
    private final class SeenModes: Sendable {
        let modes = Mutex<[(path: String, mode: Int)]>([])
    }

    @Test(
        "the identity file is never visible with a mode other than 0600: its temporary file is 0600 before the rename"
    )
    func identityFileNeverWider() throws {
        // `Data.write(options: .atomic)` and a mode change after it left the renamed file 0644 (under the usual
        // umask) until the change: the writer's temporary file, checked here as the rename is about to publish it,
        // must already be 0600, whatever the umask, and each save must go through that writer.
        let directory = TemporaryDirectory()
        let storage = FileIdentityStorage(directory: directory.appending("identity"))
        let seen = SeenModes()
        let observer: @Sendable (String) -> Void = { path in
            let mode = (try? Self.permissions(URL(fileURLWithPath: path))) ?? -1
            seen.modes.withLock { $0.append((path, mode)) }
        }
        try OwnerOnlyFile.$willRename.withValue(observer) {
            try storage.save(StoredIdentity(anonymousID: "anonymous-1", userID: nil))
            try storage.save(StoredIdentity(anonymousID: "anonymous-1", userID: "user-2"))
        }
        let modes = seen.modes.withLock { $0 }
        #expect(modes.count == 2, "each save writes through OwnerOnlyFile")
        for (path, mode) in modes {
            #expect(mode == 0o600, "\(path) was \(String(mode, radix: 8)) before the rename")
            #expect(
                URL(fileURLWithPath: path).deletingLastPathComponent() == storage.fileURL.deletingLastPathComponent()
            )
        }
        #expect(try Self.permissions(storage.fileURL) == 0o600)
        #expect(try storage.load()?.userID == "user-2")
    }
}

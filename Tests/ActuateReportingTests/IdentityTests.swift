import ActuateTesting
import Foundation
import Testing

@testable import ActuateReporting

func makeTemporaryDirectory() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("actuate-\(UUID().uuidString)", isDirectory: true)
}

@Suite("Identity")
struct IdentityTests {
    @Test("the anonymous id is a UUID that survives a relaunch over the same directory")
    func persistsAcrossLaunches() throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let firstLaunch = Identity(storage: FileIdentityStorage(directory: directory))
        let secondLaunch = Identity(storage: FileIdentityStorage(directory: directory))

        #expect(UUID(uuidString: firstLaunch.anonymousID) != nil)
        #expect(secondLaunch.anonymousID == firstLaunch.anonymousID)
        #expect(firstLaunch.loadError == nil && secondLaunch.loadError == nil)
    }

    @Test("different directories get different anonymous ids")
    func differentDirectoriesDiffer() {
        let first = makeTemporaryDirectory()
        let second = makeTemporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        let one = Identity(storage: FileIdentityStorage(directory: first))
        let other = Identity(storage: FileIdentityStorage(directory: second))
        #expect(one.anonymousID != other.anonymousID)
    }

    @Test("identify stores the user id, which comes back on the next launch")
    func userIDPersists() throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let firstLaunch = Identity(storage: FileIdentityStorage(directory: directory))
        #expect(firstLaunch.userID == nil)
        try firstLaunch.identify(userID: "customer-42")
        #expect(firstLaunch.userID == "customer-42")

        let secondLaunch = Identity(storage: FileIdentityStorage(directory: directory))
        #expect(secondLaunch.current == StoredIdentity(anonymousID: firstLaunch.anonymousID, userID: "customer-42"))
    }

    @Test("the identity file is readable by its owner only", .enabled(if: FileIdentityStorageTestSupport.isPOSIX))
    func ownerOnlyFile() throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = FileIdentityStorage(directory: directory)
        _ = Identity(storage: storage)
        let attributes = try FileManager.default.attributesOfItem(atPath: storage.fileURL.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test(
        "a corrupt identity file gives a new id and a reported error, and the new id then persists",
        arguments: [Data("{not json".utf8), Data(), Data(#"{"version":1,"anonymousID":"  "}"#.utf8)]
    )
    func corruptFile(contents: Data) async throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = FileIdentityStorage(directory: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try contents.write(to: storage.fileURL)

        let identity = await confirmation("the error handler hears of it") { reported in
            Identity(storage: storage) { error in
                if case .corruptIdentity(let path, _) = error, path == storage.fileURL.path { reported() }
            }
        }
        guard case .corruptIdentity = identity.loadError else {
            Issue.record("expected corruptIdentity, got \(String(describing: identity.loadError))")
            return
        }
        #expect(identity.lastError == identity.loadError)
        #expect(UUID(uuidString: identity.anonymousID) != nil)

        let nextLaunch = Identity(storage: storage)
        #expect(nextLaunch.loadError == nil)
        #expect(nextLaunch.anonymousID == identity.anonymousID)
    }

    @Test("a storage that cannot be written keeps the identity in memory and reports the problem")
    func unwritableStorage() throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A regular file where the directory should be makes every save fail.
        try Data("occupied".utf8).write(to: directory)
        let errors = ErrorLog()

        let identity = Identity(storage: FileIdentityStorage(directory: directory), onError: errors.handler)
        try identity.identify(userID: "customer-42")

        #expect(UUID(uuidString: identity.anonymousID) != nil)
        #expect(identity.userID == "customer-42")
        #expect(errors.all.count == 2)
        guard case .identityStorageFailed = identity.lastError else {
            Issue.record("expected identityStorageFailed, got \(String(describing: identity.lastError))")
            return
        }
    }

    @Test("memory storage shared by two instances behaves like a relaunch")
    func memoryStorage() throws {
        let storage = MemoryIdentityStorage()
        let first = Identity(storage: storage)
        try first.identify(userID: "u")
        let second = Identity(storage: storage)
        #expect(second.current == first.current)
        #expect(Identity(storage: MemoryIdentityStorage()).anonymousID != first.anonymousID)
    }

    @Test("an empty user id is refused and changes nothing")
    func emptyUserID() throws {
        let storage = MemoryIdentityStorage()
        let identity = Identity(storage: storage)
        #expect(throws: ReportingError.invalidUserID) { try identity.identify(userID: "") }
        #expect(try storage.load()?.userID == nil)
    }

    @Test("the reporter reports an identity load problem through its own error handler")
    func reporterForwardsLoadError() throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = FileIdentityStorage(directory: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("garbage".utf8).write(to: storage.fileURL)
        let errors = ErrorLog()

        let reporter = Reporter(
            store: MemoryEventStore(),
            delivery: nil,
            scheduler: TestScheduler(),
            identity: Identity(storage: storage),
            configuration: ReporterConfiguration(onError: errors.handler)
        )
        #expect(errors.all.count == 1)
        #expect(reporter.lastError == reporter.identity.loadError)
    }
}

enum FileIdentityStorageTestSupport {
    static var isPOSIX: Bool {
        #if os(Windows)
        false
        #else
        true
        #endif
    }
}

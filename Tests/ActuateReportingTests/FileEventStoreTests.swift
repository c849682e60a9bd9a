import ActuateTesting
import Foundation
import Testing

@testable import ActuateReporting

@Suite("FileEventStore")
struct FileEventStoreTests {
    let temporary = TemporaryDirectory()

    func open(
        _ durability: DurabilityMode = .synced,
        segmentSize: Int = 1 << 20,
        maxTotalBytes: Int = 64 << 20,
        scheduler: TestScheduler = TestScheduler(),
        directory: URL? = nil
    ) throws -> FileEventStore {
        let configuration = FileEventStoreConfiguration(
            durability: durability,
            segmentSize: segmentSize,
            maxTotalBytes: maxTotalBytes,
            scheduler: scheduler
        )
        return try FileEventStore(directory: directory ?? temporary.url, configuration: configuration)
    }

    @Test("fetch returns the oldest events first and never removes them")
    func fetchOldestFirst() throws {
        let store = try open()
        for event in StoreTestEvents.events(0..<10) { try store.append(event) }
        #expect(try store.fetch(count: 3, maxBytes: .max) == StoreTestEvents.events(0..<3))
        #expect(try store.fetch(count: 3, maxBytes: .max) == StoreTestEvents.events(0..<3))
        #expect(try store.fetch(count: 100, maxBytes: .max) == StoreTestEvents.events(0..<10))
        #expect(try store.fetch(count: 0, maxBytes: .max).isEmpty)
        #expect(try store.count() == 10)
    }

    @Test("remove takes out exactly the given ids, anywhere in the queue, and ignores unknown ones")
    func removeByID() throws {
        let store = try open()
        let events = StoreTestEvents.events(0..<10)
        for event in events { try store.append(event) }
        try store.remove(ids: [events[0].id, events[4].id, events[9].id, UUID()])
        let expected = events.enumerated().filter { ![0, 4, 9].contains($0.offset) }.map(\.element)
        #expect(try store.fetch(count: 100, maxBytes: .max) == expected)
        #expect(try store.count() == 7)
    }

    @Test("maxBytes limits a batch by the wire size like MemoryEventStore, and returns at least one event")
    func maxBytesMatchesMemoryStore() throws {
        let store = try open()
        let memory = MemoryEventStore()
        for event in StoreTestEvents.events(0..<20) {
            try store.append(event)
            try memory.append(event)
        }
        let oneEvent = wireBytes(StoreTestEvents.event(at: 0))
        for maxBytes in [1, oneEvent, oneEvent * 3 + 10, 2_000, 100_000] {
            let batch = try store.fetch(count: 20, maxBytes: maxBytes)
            #expect(batch == (try memory.fetch(count: 20, maxBytes: maxBytes)))
            #expect(!batch.isEmpty)
        }
        #expect(try store.fetch(count: 20, maxBytes: 1).count == 1)
    }

    @Test("reopening keeps the unacknowledged events and not the removed ones", arguments: [false, true])
    func reopenKeepsUnacknowledged(groupCommit: Bool) throws {
        let events = StoreTestEvents.events(0..<50)
        do {
            let store = try open(groupCommit ? .groupCommit() : .synced, segmentSize: 4096)
            for event in events { try store.append(event) }
            try store.remove(ids: Set(events[0..<10].map(\.id) + events[20..<25].map(\.id)))
            try store.close()
        }
        let reopened = try open(segmentSize: 4096)
        let expected = Array(events[10..<20] + events[25..<50])
        #expect(try reopened.fetch(count: 100, maxBytes: .max) == expected)
        #expect(reopened.recoveryReport.isClean)
        #expect(reopened.recoveryReport.eventsRecovered == 35)
    }

    @Test("segments whose events are all removed are deleted, and removals survive reopening")
    func removedSegmentsAreDeleted() throws {
        let events = StoreTestEvents.events(0..<200)
        let store = try open(segmentSize: 4096)
        for event in events { try store.append(event) }
        let segmentsBefore = try TemporaryDirectory.segments(in: temporary.url).count
        #expect(segmentsBefore > 5)
        try store.remove(ids: Set(events[0..<150].map(\.id)))
        let segmentsAfter = try TemporaryDirectory.segments(in: temporary.url).count
        #expect(segmentsAfter < segmentsBefore)
        #expect(segmentsAfter <= (segmentsBefore + 3) / 4 + 1)
        try store.remove(ids: Set(events[150...].map(\.id)))
        #expect(try TemporaryDirectory.segments(in: temporary.url).count == 1)
        try store.close()
        let reopened = try open(segmentSize: 4096)
        #expect(try reopened.count() == 0)
        try reopened.append(StoreTestEvents.event(at: 500))
        #expect(try reopened.fetch(count: 10, maxBytes: .max) == [StoreTestEvents.event(at: 500)])
    }

    @Test("removing every other event across segments survives reopening")
    func scatteredRemovalsSurviveReopen() throws {
        let events = StoreTestEvents.events(0..<120)
        do {
            let store = try open(segmentSize: 4096)
            for event in events { try store.append(event) }
            try store.remove(ids: Set(events.enumerated().filter { $0.offset % 2 == 0 }.map(\.element.id)))
            try store.close()
        }
        let reopened = try open(segmentSize: 4096)
        #expect(
            try reopened.fetch(count: 200, maxBytes: .max)
                == events.enumerated().filter { $0.offset % 2 == 1 }
                .map(\.element)
        )
    }

    @Test("over the disk cap the oldest events are dropped and counted, and disk use stays under the cap")
    func diskCapDropsOldest() throws {
        let store = try open(segmentSize: 4096, maxTotalBytes: 16_384)
        for event in StoreTestEvents.events(0..<400) { try store.append(event) }
        let kept = try store.fetch(count: 1_000, maxBytes: .max)
        #expect(store.droppedEventCount > 0)
        #expect(kept.count + store.droppedEventCount == 400)
        #expect(kept.map { StoreTestEvents.index(of: $0) } == Array((400 - kept.count)..<400))
        let diskBytes = try TemporaryDirectory.segments(in: temporary.url)
            .map { try FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int ?? 0 }
            .reduce(0, +)
        #expect(diskBytes <= 16_384)
        try store.close()
        #expect(try open(segmentSize: 4096, maxTotalBytes: 16_384).fetch(count: 1_000, maxBytes: .max) == kept)
    }

    @Test("dead letters leave the queue, keep their reason and survive reopening")
    func deadLettersSurviveReopen() throws {
        let events = StoreTestEvents.events(0..<5)
        do {
            let store = try open()
            for event in events { try store.append(event) }
            try store.moveToDeadLetter(ids: [events[1].id, events[3].id], reason: "HTTP 400 after 3 tries")
            try store.moveToDeadLetter(ids: [events[4].id, UUID()], reason: "rejected")
            #expect(try store.count() == 2)
            #expect(
                try store.deadLetters() == [
                    DeadLetter(event: events[1], reason: "HTTP 400 after 3 tries"),
                    DeadLetter(event: events[3], reason: "HTTP 400 after 3 tries"),
                    DeadLetter(event: events[4], reason: "rejected"),
                ]
            )
            try store.close()
        }
        let reopened = try open()
        #expect(try reopened.fetch(count: 10, maxBytes: .max) == [events[0], events[2]])
        #expect(try reopened.deadLetters().map(\.event) == [events[1], events[3], events[4]])
        #expect(reopened.recoveryReport.deadLettersRecovered == 3)
    }

    @Test("group commit does no file I/O on append and persists once the writer runs")
    func groupCommitPersistsAfterInterval() throws {
        let scheduler = TestScheduler()
        let store = try open(.groupCommit(interval: .milliseconds(5)), scheduler: scheduler)
        let segment = try #require(try TemporaryDirectory.segments(in: temporary.url).first)
        let emptySize = try FileManager.default.attributesOfItem(atPath: segment.path)[.size] as? Int
        for event in StoreTestEvents.events(0..<20) { try store.append(event) }
        #expect(try FileManager.default.attributesOfItem(atPath: segment.path)[.size] as? Int == emptySize)
        #expect(try store.count() == 20)
        #expect(scheduler.pendingCount == 1)

        scheduler.advance(by: .milliseconds(5))
        let crashed = temporary.appending("crash-copy")
        try TemporaryDirectory.copyFiles(of: temporary.url, to: crashed)
        let recovered = try open(directory: crashed)
        #expect(try recovered.fetch(count: 100, maxBytes: .max) == StoreTestEvents.events(0..<20))
    }

    @Test("flush makes group-committed events durable before the interval")
    func flushForcesWrite() throws {
        let scheduler = TestScheduler()
        let store = try open(.groupCommit(interval: .seconds(60)), scheduler: scheduler)
        for event in StoreTestEvents.events(0..<7) { try store.append(event) }
        let before = temporary.appending("before-flush")
        try TemporaryDirectory.copyFiles(of: temporary.url, to: before)
        try store.flush()
        let after = temporary.appending("after-flush")
        try TemporaryDirectory.copyFiles(of: temporary.url, to: after)
        #expect(try open(directory: before).count() == 0)
        #expect(try open(directory: after).fetch(count: 10, maxBytes: .max) == StoreTestEvents.events(0..<7))
    }

    @Test("a second store on the same directory in the same process gets a clear error until the first closes")
    func lockedInSameProcess() throws {
        let first = try open()
        let error = #expect(
            throws: EventStoreError.lockedByAnotherProcess(directory: temporary.url.path, ownerPID: getpid())
        ) {
            _ = try open()
        }
        // It says "this process", not "another process (process <our own id>)", and how to get out of it.
        #expect(error?.description.contains("already open in this process") == true)
        #expect(error?.description.contains("FileEventStore.close()") == true)
        #expect(error?.description.contains("another process") == false)
        try first.close()
        #expect(try open().count() == 0)
    }

    @Test("appending the same event twice stores it once")
    func duplicateAppendIgnored() throws {
        let store = try open()
        try store.append(StoreTestEvents.event(at: 1))
        try store.append(StoreTestEvents.event(at: 1))
        #expect(try store.count() == 1)
    }

    @Test("many threads appending at once lose nothing")
    func concurrentAppends() throws {
        let scheduler = TestScheduler()
        let store = try open(.groupCommit(), segmentSize: 8192, scheduler: scheduler)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for index in 0..<100 { try? store.append(StoreTestEvents.event(at: worker * 100 + index)) }
        }
        #expect(try store.count() == 800)
        try store.close()
        let indices = try open(segmentSize: 8192).fetch(count: 1_000, maxBytes: .max)
            .compactMap(StoreTestEvents.index(of:))
        #expect(Set(indices) == Set(0..<800))
        for worker in 0..<8 {
            let own = indices.filter { $0 / 100 == worker }
            #expect(own == own.sorted())
        }
    }

    @Test("the directory and files are readable by their owner only")
    func ownerOnlyPermissions() throws {
        let directory = temporary.appending("nested/store")
        let store = try open(directory: directory)
        try store.append(StoreTestEvents.event(at: 0))
        let attributes = { (path: String) in
            try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        }
        #expect(try attributes(directory.path) == 0o700)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            #expect(try attributes(directory.appending(path: name).path) == 0o600, "\(name)")
        }
    }
}

@Suite("FileEventStore bad input")
struct FileEventStoreBadInputTests {
    let temporary = TemporaryDirectory()

    @Test("a directory path that is a file gives directoryUnavailable")
    func directoryIsFile() throws {
        try FileManager.default.createDirectory(at: temporary.url, withIntermediateDirectories: true)
        let file = temporary.appending("plain-file")
        try Data("x".utf8).write(to: file)
        #expect {
            _ = try FileEventStore(directory: file)
        } throws: { error in
            guard case .directoryUnavailable(let path, _) = error as? EventStoreError else { return false }
            return path == file.path
        }
    }

    @Test(
        "a store under a regular file says which path is a file, not a Cocoa error code",
        arguments: ["store", "deeper/store"]
    )
    func directoryCannotBeCreated(below: String) throws {
        try FileManager.default.createDirectory(at: temporary.url, withIntermediateDirectories: true)
        let file = temporary.appending("plain-file")
        try Data("x".utf8).write(to: file)
        let target = file.appending(path: below)
        let error = #expect(throws: EventStoreError.self) { _ = try FileEventStore(directory: target) }
        guard case .directoryUnavailable(let path, let reason) = error else {
            Issue.record("expected directoryUnavailable, got \(String(describing: error))")
            return
        }
        #expect(path == target.path)
        #expect(reason == "\(file.path) is a file, not a directory, so the directory cannot be created inside it")
        let message = String(describing: error)
        #expect(message.contains(file.path))
        #expect(!message.contains("NSCocoaErrorDomain"))
        #expect(!message.contains("error 512"))
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test("configurations that cannot work are refused")
    func invalidConfiguration() {
        let bad = [
            FileEventStoreConfiguration(segmentSize: 100),
            FileEventStoreConfiguration(segmentSize: 1 << 20, maxTotalBytes: 1 << 20),
            FileEventStoreConfiguration(durability: .groupCommit(interval: .zero)),
        ]
        for configuration in bad {
            #expect {
                _ = try FileEventStore(directory: temporary.url, configuration: configuration)
            } throws: { error in
                guard case .invalidConfiguration = error as? EventStoreError else { return false }
                return true
            }
        }
    }

    @Test("an event larger than a segment is refused and the store keeps working")
    func eventTooLarge() throws {
        let store = try FileEventStore(
            directory: temporary.url,
            configuration: FileEventStoreConfiguration(durability: .synced, segmentSize: 4096, maxTotalBytes: 8192)
        )
        var huge = StoreTestEvents.event(at: 0)
        huge.properties["blob"] = .string(String(repeating: "y", count: 5_000))
        #expect {
            try store.append(huge)
        } throws: { error in
            guard case .eventTooLarge = error as? EventStoreError else { return false }
            return true
        }
        try store.append(StoreTestEvents.event(at: 1))
        #expect(try store.fetch(count: 10, maxBytes: .max) == [StoreTestEvents.event(at: 1)])
    }

    @Test("a closed store throws closed and releases its lock")
    func closedStore() throws {
        let store = try FileEventStore(directory: temporary.url)
        try store.close()
        try store.close()
        #expect(throws: EventStoreError.closed) { try store.append(StoreTestEvents.event(at: 0)) }
        #expect(throws: EventStoreError.closed) { _ = try store.fetch(count: 1, maxBytes: .max) }
        #expect(throws: EventStoreError.closed) { try store.remove(ids: [UUID()]) }
        #expect(throws: EventStoreError.closed) { _ = try store.count() }
        #expect(try FileEventStore(directory: temporary.url).count() == 0)
    }
}

@Suite("FileEventStore encoding")
struct FileEventStoreEncodingTests {
    let temporary = TemporaryDirectory()

    @Test("every kind of property value and unusual strings round-trip exactly through disk")
    func roundTripsValues() throws {
        let event = ReportEvent(
            type: "",
            timestamp: Date(timeIntervalSinceReferenceDate: -1.000_000_1),
            sessionID: "séance 🎯",
            anonymousID: "a\u{0}b",
            userID: "",
            properties: [
                "": .null, "t": true, "f": false, "neg": -0.0, "big": .number(1e308),
                "tiny": .number(.leastNonzeroMagnitude),
                "text": "line\nbreak \"quoted\" \u{1F600}", "list": [[], [:], [nil, 1.5, ["deep": "x"]]],
            ]
        )
        do {
            let store = try FileEventStore(directory: temporary.url)
            try store.append(event)
            try store.close()
        }
        let reopened = try FileEventStore(directory: temporary.url)
        let stored = try #require(try reopened.fetch(count: 1, maxBytes: .max).first)
        #expect(stored == event)
        #expect(
            stored.timestamp.timeIntervalSinceReferenceDate.bitPattern
                == event.timestamp.timeIntervalSinceReferenceDate.bitPattern
        )
    }

    @Test("properties nested too deeply are refused with encodingFailed")
    func deepNestingRefused() throws {
        let store = try FileEventStore(directory: temporary.url)
        var value: JSONValue = "leaf"
        for _ in 0..<300 { value = .array([value]) }
        var event = StoreTestEvents.event(at: 0)
        event.properties["deep"] = value
        #expect {
            try store.append(event)
        } throws: { error in
            guard case .encodingFailed = error as? EventStoreError else { return false }
            return true
        }
        #expect(try store.count() == 0)
    }
}

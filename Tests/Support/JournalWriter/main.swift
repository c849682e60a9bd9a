// A helper process for the FileEventStore crash and lock tests.
//
// Usage: JournalWriter DIRECTORY MODE START [SEGMENT-SIZE]
//   MODE `synced` or `group`: appends the events START, START+1, … and, after each append returns, prints the
//   event's index on its own line and flushes stdout. It stops after 1,000,000 events; tests kill it sooner.
//   MODE `hold`: opens the store, prints `locked`, and keeps it open until stdin is closed.
//   MODE `group-timed`: as `group`, and each line also gives the append's CLOCK_MONOTONIC time in nanoseconds,
//   `INDEX NANOSECONDS`, taken when `append` returned.
//   MODE `probe`: tries to open the store and prints `opened`, or `refused PID` naming the holder, then exits.
//   MODE `soak`: JournalWriter DIRECTORY soak START END COLLECTOR-URL appends and uploads (see SoakWriter.swift).
//   MODE `tracker`: JournalWriter DIRECTORY tracker: page views and closes on a tracker (see TrackerWriter.swift).
//   `JournalWriter fetch URL LIMIT` sends one GET and reports its peak memory (see FetchProbe.swift).
// The event for an index is built exactly as the tests build it (CrashTestEvents.event(at:)).
import ActuateReporting
import Foundation

func event(at index: Int) -> ReportEvent {
    ReportEvent(
        id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012llX", index))!,
        type: "crash-test",
        timestamp: Date(timeIntervalSince1970: 1_767_225_600 + Double(index)),
        sessionID: "session-\(index / 10)",
        anonymousID: "anonymous-1",
        userID: index % 3 == 0 ? "user-\(index)" : nil,
        properties: [
            "index": .number(Double(index)),
            "payload": .string(String(repeating: "x", count: index % 50)),
            "nested": ["odd": .bool(index % 2 == 1), "list": [1, "two", nil]],
        ]
    )
}

/// Writes one line to stdout at once, unbuffered, so the test sees it as soon as it is acknowledged.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("journal-writer: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
if arguments.count > 2, arguments[2] == "soak" { SoakWriter.run(arguments) }
if arguments.count > 1, arguments[1] == "fetch" { FetchProbe.run(arguments) }
if arguments.count > 2, arguments[2] == "tracker" { TrackerWriter.run(arguments) }
guard arguments.count >= 4, let start = Int(arguments[3]) else {
    fail("usage: JournalWriter DIRECTORY synced|group|group-timed|hold|probe START [SEGMENT-SIZE]")
}
let directory = URL(fileURLWithPath: arguments[1])
let segmentSize = arguments.count > 4 ? Int(arguments[4]) ?? (1 << 20) : (1 << 20)
let timed = arguments[2] == "group-timed"
let durability: DurabilityMode = arguments[2] == "group" || timed ? .groupCommit() : .synced
let configuration = FileEventStoreConfiguration(
    durability: durability,
    segmentSize: segmentSize,
    maxTotalBytes: max(64 << 20, 2 * segmentSize)
)

if arguments[2] == "probe" {
    do {
        let store = try FileEventStore(directory: directory, configuration: configuration)
        say("opened")
        try store.close()
    } catch EventStoreError.lockedByAnotherProcess(_, let owner) {
        say("refused \(owner.map(String.init) ?? "unknown")")
    } catch {
        fail("\(error)")
    }
    exit(0)
}

do {
    let store = try FileEventStore(directory: directory, configuration: configuration)
    if arguments[2] == "hold" {
        say("locked")
        while readLine() != nil {}
        try store.close()
        exit(0)
    }
    for index in start..<(start + 1_000_000) {
        try store.append(event(at: index))
        if timed {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            say("\(index) \(Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))")
        } else {
            say("\(index)")
        }
    }
    try store.close()
} catch {
    fail("\(error)")
}

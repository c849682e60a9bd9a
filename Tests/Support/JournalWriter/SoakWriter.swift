// The `soak` mode of the JournalWriter helper, for the soak test (SoakUnderFaultsTests).
//
// Usage: JournalWriter DIRECTORY soak START END COLLECTOR-URL
//   Opens the store in DIRECTORY (recovering what a killed run left), starts an uploader that posts to
//   COLLECTOR-URL, prints `config CHUNK MAX-TOTAL-BYTES`, and appends the events START..<END (built by
//   event(at:)) in chunks of `SoakWriter.chunk`. After each chunk it flushes the store and prints `acked LAST`:
//   every event up to LAST is then on disk. It waits for the uploader while more than `SoakWriter.maxBacklog`
//   events are stored, so the store stays far below its cap. Every upload result is printed as
//   `result STATUS-OR-FAILURE EVENTS DECISION`. When all are appended it prints `appended`, waits until the store
//   is empty, then prints `dead INDEX` for every dead-lettered event and `drained DROPPED PEAK-RSS-KB STORED`
//   (events the store dropped over its cap, its own peak resident set size, and the events still stored), and
//   exits. The test kills it with SIGKILL at any point and starts it again.
import Actuate
import ActuateReporting
import Foundation
import Synchronization

enum SoakWriter {
    /// Events appended between two flushes of the store.
    static let chunk = 200
    /// The most stored events before appending waits for the uploader.
    static let maxBacklog = 20_000
    /// The store's segment size and cap, which the test also checks on disk.
    static let segmentSize = 256 << 10
    static let maxTotalBytes = 16 << 20

    static func run(_ arguments: [String]) -> Never {
        guard arguments.count >= 6, let start = Int(arguments[3]), let end = Int(arguments[4]),
            let endpoint = URL(string: arguments[5])
        else {
            fail("usage: JournalWriter DIRECTORY soak START END COLLECTOR-URL")
        }
        let directory = URL(fileURLWithPath: arguments[1])
        Task {
            do {
                try await soak(directory: directory, start: start, end: end, endpoint: endpoint)
                exit(0)
            } catch {
                fail("\(error)")
            }
        }
        dispatchMain()
    }

    private static func soak(directory: URL, start: Int, end: Int, endpoint: URL) async throws {
        let store = try FileEventStore(
            directory: directory,
            configuration: FileEventStoreConfiguration(
                durability: .groupCommit(),
                segmentSize: segmentSize,
                maxTotalBytes: maxTotalBytes
            )
        )
        let transport = try HTTPEventTransport(endpoint: endpoint, apiKey: "soak-key", timeout: .seconds(1))
        let uploader = EventUploader(
            store: store,
            transport: transport,
            scheduler: SystemScheduler.shared,
            configuration: EventUploader.Configuration(
                flushPolicies: [.count(250), .interval(.seconds(1))],
                maxBatchCount: 500,
                retryPolicy: UploadRetryPolicy(
                    backoffBase: .milliseconds(20),
                    backoffMaximum: .milliseconds(250),
                    maxRejectedTries: 3,
                    maxRetryAfter: .milliseconds(250)
                )
            )
        )
        say("config \(chunk) \(maxTotalBytes)")
        let signal = ResultSignal()
        let results = uploader.results()
        let printer = Task {
            for await result in results {
                say("result \(describe(result))")
                signal.fire()
            }
        }
        // Whatever a killed run left stored is sent first.
        uploader.applicationDidEnterBackground()
        var index = start
        while index < end {
            let chunkEnd = min(index + chunk, end)
            for position in index..<chunkEnd { try store.append(event(at: position)) }
            try store.flush()
            say("acked \(chunkEnd - 1)")
            uploader.eventsAppended(chunkEnd - index)
            index = chunkEnd
            while try store.count() > maxBacklog {
                await signal.next { uploader.applicationDidEnterBackground() }
            }
        }
        say("appended")
        while try store.count() > 0 {
            await signal.next { uploader.applicationDidEnterBackground() }
        }
        await uploader.waitUntilIdle()
        for letter in try store.deadLetters() {
            if case .number(let position) = letter.event.properties["index"] { say("dead \(Int(position))") }
        }
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        say("drained \(store.droppedEventCount) \(usage.ru_maxrss) \(try store.count())")
        printer.cancel()
        try store.close()
    }

    private static func describe(_ result: UploadResult) -> String {
        let response = result.statusCode.map(String.init) ?? result.failure?.kind.rawValue ?? "unknown"
        let decision: String
        switch result.decision {
        case .acknowledge: decision = "acknowledge"
        case .deadLetter: decision = "deadLetter"
        case .split: decision = "split"
        case .retry: decision = "retry"
        case .pause: decision = "pause"
        }
        return "\(response) \(result.eventCount) \(decision)"
    }
}

/// Wakes a waiting writer at the next upload result, or after a short bounded wait when no result comes: a flush
/// that finds nothing to send reports no result, so a writer woken only by results could miss its last one.
final class ResultSignal: Sendable {
    private struct State {
        var nextToken: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// Resumes everyone waiting.
    func fire() {
        let resumed = state.withLock { state in
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in resumed { waiter.resume() }
    }

    /// Runs `prod` once registered, then waits for the next result, or 100 ms at most.
    func next(after prod: () -> Void) async {
        await withCheckedContinuation { continuation in
            let token = state.withLock { state in
                defer { state.nextToken += 1 }
                state.waiters[state.nextToken] = continuation
                return state.nextToken
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) { [self] in
                state.withLock { $0.waiters.removeValue(forKey: token) }?.resume()
            }
            prod()
        }
    }
}

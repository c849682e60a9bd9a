import ActuateTestSupport
import Foundation
import Synchronization

/// Runs the JournalWriter helper in its `soak` mode, kills it with SIGKILL at chosen points and starts it again,
/// and collects what it printed, for ``SoakUnderFaultsTests``.
///
/// Everything here blocks (it reads the writer's output), so it runs on a Dispatch thread, not in the
/// cooperative pool. A watchdog kills the writer once the deadline has passed, which ends the run with an error.
struct SoakDriver: Sendable {
    /// What the runs printed and what the driver measured.
    struct Figures: Sendable {
        /// Events the writers acknowledged (flushed to disk and announced), by index.
        var acknowledgedIndices: Set<Int> = []
        /// One past the highest index any writer may have appended.
        var finalEnd = 0
        /// SIGKILLs sent.
        var kills = 0
        /// Upload results by response (`200`, `503`, `timedOut`, …).
        var resultsByResponse: [String: Int] = [:]
        /// Results without an HTTP response, by failure kind: each may have lost an answer to a recorded batch.
        var failuresByKind: [String: Int] = [:]
        /// Events in dead-letter decisions the writers announced.
        var deadLetterDecisionEvents = 0
        /// The dead-lettered events the last writer found in its store.
        var deadLetteredIndices: [Int] = []
        /// Events the store dropped over its cap, in the last run.
        var droppedEvents = 0
        /// Events still stored, neither acknowledged nor dead-lettered, when the last writer finished.
        var eventsLeftStored = -1
        /// The highest peak resident set size of any writer, in kilobytes.
        var peakRSSKilobytes = 0
        /// The largest the store directory was found to be, in bytes.
        var maxStoreBytes = 0
        /// The store's cap, as the writer announced it.
        var maxTotalBytes = 0
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let directory: URL
    let endpoint: URL
    let eventCount: Int
    let killAtAcknowledged: [Int]
    let killWhileDraining: Bool
    let deadline: Duration

    /// The index of a soak event id (`00000000-0000-4000-8000-<index in hex>`), or `nil` for any other id.
    static func index(ofID id: String) -> Int? {
        let prefix = "00000000-0000-4000-8000-"
        guard id.uppercased().hasPrefix(prefix) else { return nil }
        return Int(id.dropFirst(prefix.count), radix: 16)
    }

    /// Runs writers until one has appended everything and drained the store.
    func run() throws -> Figures {
        var figures = Figures()
        var pendingKills = killAtAcknowledged.sorted()
        var drainKillPending = killWhileDraining
        var start = 0
        var end = eventCount
        let watchdog = Watchdog()
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Int(deadline.components.seconds))) {
            watchdog.expire()
        }
        defer { watchdog.finish() }
        while true {
            let writer = try JournalWriterProcess(
                arguments: [directory.path, "soak", String(start), String(end), endpoint.absoluteString]
            )
            watchdog.watch(writer.processIdentifier)
            var lastAcknowledged: Int?
            var chunk = 0
            var lines = 0
            var appended = false
            var drained = false
            var killed = false
            while let line = writer.readLine() {
                lines += 1
                let words = line.split(separator: " ").map(String.init)
                switch words.first {
                case "config":
                    chunk = Int(words[1]) ?? 0
                    figures.maxTotalBytes = Int(words[2]) ?? 0
                case "acked":
                    guard let index = Int(words[1]) else { break }
                    lastAcknowledged = index
                    if lines % 5 == 0 { measureStore(into: &figures) }
                    let total = figures.acknowledgedIndices.count + index - start + 1
                    if let threshold = pendingKills.first, total >= threshold {
                        pendingKills.removeFirst()
                        killed = true
                    }
                case "result":
                    record(result: words, into: &figures)
                case "appended":
                    // From here the writer only drains what is stored: one kill lands in that phase.
                    appended = true
                    if drainKillPending {
                        drainKillPending = false
                        killed = true
                    }
                case "dead":
                    if let index = Int(words[1]) { figures.deadLetteredIndices.append(index) }
                case "drained":
                    figures.droppedEvents = Int(words[1]) ?? -1
                    figures.peakRSSKilobytes = max(figures.peakRSSKilobytes, Int(words[2]) ?? 0)
                    figures.eventsLeftStored = Int(words[3]) ?? -1
                    drained = true
                default:
                    throw Failure(description: "the writer printed an unexpected line: \(line)")
                }
                if killed || drained { break }
            }
            if killed {
                figures.peakRSSKilobytes = max(figures.peakRSSKilobytes, Self.peakRSS(of: writer.processIdentifier))
                writer.kill()
                figures.kills += 1
            } else {
                let status = writer.finish()
                guard drained, status == 0 else {
                    if watchdog.hasExpired {
                        throw Failure(description: "the soak did not finish within \(deadline)")
                    }
                    throw Failure(description: "the writer exited with status \(status) before draining")
                }
            }
            measureStore(into: &figures)
            if let lastAcknowledged, lastAcknowledged >= start {
                figures.acknowledgedIndices.formUnion(start...lastAcknowledged)
            }
            figures.finalEnd = max(figures.finalEnd, end)
            if drained { return figures }
            // Events after the last acknowledged one may or may not have reached the disk: the next writer
            // skips them, and appends as many more at the end.
            let resume = (lastAcknowledged ?? start - 1) + 1
            let skipped = appended ? 0 : min(chunk, end - resume)
            start = resume + skipped
            end += skipped
        }
    }

    private func record(result words: [String], into figures: inout Figures) {
        guard words.count >= 4 else { return }
        figures.resultsByResponse[words[1], default: 0] += 1
        if Int(words[1]) == nil { figures.failuresByKind[words[1], default: 0] += 1 }
        if words[3] == "deadLetter" { figures.deadLetterDecisionEvents += Int(words[2]) ?? 0 }
    }

    private func measureStore(into figures: inout Figures) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var total = 0
        for name in names {
            var info = stat()
            if stat(directory.appending(path: name).path, &info) == 0 { total += Int(info.st_size) }
        }
        figures.maxStoreBytes = max(figures.maxStoreBytes, total)
    }

    /// The peak resident set size (`VmHWM`) of a running process, in kilobytes, or 0 where `/proc` is missing.
    static func peakRSS(of pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return 0
    }
}

/// Kills the current writer once the deadline has passed, so that a stuck soak ends instead of hanging.
final class Watchdog: Sendable {
    private struct State {
        var pid: Int32?
        var expired = false
        var finished = false
    }

    private let state = Mutex(State())

    var hasExpired: Bool { state.withLock { $0.expired } }

    func watch(_ pid: Int32) {
        let expired = state.withLock { state -> Bool in
            state.pid = pid
            return state.expired
        }
        if expired { kill(pid, SIGKILL) }
    }

    func expire() {
        let pid = state.withLock { state -> Int32? in
            guard !state.finished else { return nil }
            state.expired = true
            return state.pid
        }
        if let pid { kill(pid, SIGKILL) }
    }

    func finish() {
        state.withLock { $0.finished = true }
    }
}

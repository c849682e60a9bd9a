import ActuateTestSupport
import Foundation
import Testing

@testable import ActuatePersonalization

/// Issue 45, point 1: the tracker writes its state behind the caller, and a crash loses at most the last few
/// milliseconds of page views and closes, never a damaged file. A helper process (JournalWriter's `tracker` mode)
/// takes a stream of page views and closes and is killed with SIGKILL at a random moment; the test reads what the
/// files kept against what the helper had acknowledged. (It lives here, beside the journal's crash tests and the
/// helper they share.)
@Suite("Tracker crash: what a SIGKILL loses")
struct TrackerCrashTests {
    let temporary = TemporaryDirectory()

    /// One acknowledged call of the helper: `INDEX NANOSECONDS KIND`.
    struct Acknowledged {
        var index: Int
        var time: Int64
        var isClose: Bool
    }

    static func parse(_ line: String) throws -> Acknowledged {
        let fields = line.split(separator: " ")
        try #require(fields.count == 3, "unexpected line \(line)")
        let index = try #require(Int(fields[0]))
        let time = try #require(Int64(fields[1]))
        return Acknowledged(index: index, time: time, isClose: fields[2] == "close")
    }

    /// Kills the helper at random moments; each time the state file must decode, hold a prefix of the stream
    /// (every close before its last page view), and lose only calls made shortly before the kill. The ages are
    /// printed; set `ACTUATE_LOSS_ROUNDS` for more kills.
    @Test("after SIGKILL the state file is whole and holds a prefix; only the newest calls are lost")
    func lossAfterKill() async throws {
        let rounds = Int(ProcessInfo.processInfo.environment["ACTUATE_LOSS_ROUNDS"] ?? "") ?? 6
        var generator = SplitMix64(seed: UInt64.random(in: 0...UInt64.max))
        var ages: [Double] = []
        var lostCalls: [Int] = []
        for round in 0..<rounds {
            let directory = temporary.appending("tracker-\(round)")
            let target = Int.random(in: 200...3_000, using: &generator)
            let output = try await JournalWriterProcess.outputUntilKilled(
                arguments: [directory.path, "tracker", "0"],
                killAfter: target
            )
            let acknowledged = try output.lines.map(Self.parse)
            try #require(!acknowledged.isEmpty, "round \(round): the helper acknowledged nothing")
            let file = directory.appending(path: "tracker-state.json")
            // Killed before the first write finished, or after only the session's start was written: no page view
            // kept, and nothing damaged either.
            var kept = -1
            var closed: Set<Int> = []
            if FileManager.default.fileExists(atPath: file.path) {
                let saved = try JSONDecoder().decode(TrackerState.Saved.self, from: Data(contentsOf: file))
                // The first snapshot, of the session that starts before the first page view, holds no page.
                if let document = saved.profile.currentDocument {
                    kept = try #require(Int(document.dropFirst("page-".count)))
                }
                closed = Set(acknowledged.filter(\.isClose).map(\.index).filter { saved.dontShow.isHidden($0) })
            }
            let closesBefore = acknowledged.filter { $0.isClose && $0.index < kept }.map(\.index)
            #expect(closesBefore.allSatisfy(closed.contains), "round \(round): every close before the kept page")
            #expect(closed.allSatisfy { $0 <= kept }, "round \(round): nothing newer than the kept page view")
            let lost = acknowledged.filter { $0.index > kept }
            lostCalls.append(lost.count)
            if let oldest = lost.first {
                let age = Double(output.killedAt - oldest.time) / 1e6
                ages.append(age)
                // The documented window is a few milliseconds; a loaded CI machine gets wide room, not a pass for
                // losing the whole stream.
                #expect(age < 1_000, "round \(round): a call \(age) ms before the kill was lost")
            }
        }
        let sorted = ages.sorted()
        print(
            "tracker loss window: \(rounds) kills; calls lost per kill \(lostCalls); oldest lost call acknowledged "
                + "\(String(format: "%.2f", sorted.last ?? 0)) ms before the kill at most, median "
                + "\(String(format: "%.2f", sorted.isEmpty ? 0 : sorted[sorted.count / 2])) ms"
        )
    }
}

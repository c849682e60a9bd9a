import ActuateReporting
import Foundation

/// Profile cases for the journal, run under callgrind by hand to see what recovery costs:
///
/// ```sh
/// ACTUATE_BENCH_PROFILE=journal-write ACTUATE_BENCH_PROFILE_ITERATIONS=100000 \
///     ACTUATE_BENCH_PROFILE_DIRECTORY=/tmp/journal .build/release/actuate-bench
/// ACTUATE_BENCH_PROFILE=journal-open ACTUATE_BENCH_PROFILE_ITERATIONS=1 ACTUATE_BENCH_PROFILE_DIRECTORY=/tmp/journal \
///     valgrind --tool=callgrind .build/release/actuate-bench
/// ```
///
/// `journal-write` fills the directory with that many benchmark events; `journal-open` opens the store there that
/// many times, as `journal.recover` does, and closes it. `journal-synced` makes that many ``DurabilityMode/synced``
/// appends from one thread, and `journal-synced-threads` that many from each of four threads, as
/// `journal.append synced, 4 threads over 1` does; both print the rate and how many ways the syncs were shared
/// (run them under `strace -f -c` or `time` to see the system calls and processor time a synced append costs).
enum JournalProfile {
    /// Whether `name` is one of these cases.
    static func handles(_ name: String) -> Bool { name.hasPrefix("journal-") }

    static func run(_ name: String, times: Int) throws {
        guard let path = ProcessInfo.processInfo.environment["ACTUATE_BENCH_PROFILE_DIRECTORY"] else {
            throw BenchmarkFailure("set ACTUATE_BENCH_PROFILE_DIRECTORY to the journal's directory")
        }
        let directory = URL(fileURLWithPath: path)
        switch name {
        case "journal-write":
            let store = try FileEventStore(directory: directory)
            for event in JournalBenchmarkFiles.events(times) { try store.append(event) }
            try store.close()
        case "journal-open":
            for _ in 0..<times { try FileEventStore(directory: directory).close() }
        case "journal-synced", "journal-synced-threads":
            let threads = name == "journal-synced" ? 1 : 4
            let events = JournalBenchmarkFiles.events(times * threads)
            let run = try JournalBenchmarkFiles.appendSynced(events, threads: threads, perThread: times, in: directory)
            print(
                "\(threads) thread(s): \(Int(run.rate)) synced appends/s; \(run.syncedAppends) appends in"
                    + " \(run.syncs) syncs; first failure: \(run.firstFailure ?? "none")"
            )
        default:
            throw BenchmarkFailure("unknown journal profile case \(name)")
        }
    }
}

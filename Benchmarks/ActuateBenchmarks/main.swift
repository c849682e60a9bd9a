import Foundation

if let profile = ProcessInfo.processInfo.environment["ACTUATE_BENCH_PROFILE"] {
    // For callgrind: run one dispatch case a fixed number of times and exit.
    DispatchProfiling.run(profile)
    exit(0)
}

do {
    try BenchmarkRunner(arguments: Array(CommandLine.arguments.dropFirst())).run(BenchmarkCatalog.all)
} catch let usage as BenchmarkUsage {
    print(usage)
    exit(2)
} catch {
    print("actuate-bench failed: \(error)")
    exit(1)
}

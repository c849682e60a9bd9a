import Foundation

if let setup = ProcessInfo.processInfo.environment[SetupProbe.variable] {
    // A fresh process that sets an app up once and performs its first action (`setup.first-action`).
    exit(SetupProbe.child(setup))
}

if let profile = ProcessInfo.processInfo.environment["ACTUATE_BENCH_PROFILE"] {
    // Instructions, atomics and mallocs per dispatch, counted by callgrind.
    do {
        try DispatchProfiler.run(profile)
        exit(0)
    } catch {
        print("actuate-bench profile failed: \(error)")
        exit(1)
    }
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

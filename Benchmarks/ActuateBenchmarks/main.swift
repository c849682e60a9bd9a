import Foundation

do {
    try BenchmarkRunner(arguments: Array(CommandLine.arguments.dropFirst())).run(BenchmarkCatalog.all)
} catch let usage as BenchmarkUsage {
    print(usage)
    exit(2)
} catch {
    print("actuate-bench failed: \(error)")
    exit(1)
}

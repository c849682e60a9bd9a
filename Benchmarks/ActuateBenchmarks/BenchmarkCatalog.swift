/// Every benchmark the harness knows, one line each; add yours here.
enum BenchmarkCatalog {
    static let all: [Benchmark] = [
        .dispatchSync,
        .dispatchHop,
        .dispatchAsyncAwait,
        .timelineMemory,
        .journalAppend,
        .journalRecover,
        .decide,
    ]
}

/// Every benchmark the harness knows, one line each; add yours here.
enum BenchmarkCatalog {
    static let all: [Benchmark] = [
        .dispatchSync,
        .dispatchInstructions,
        .dispatchHop,
        .dispatchAsyncAwait,
        .dispatchScaling,
        .dispatchPlugins,
        .timelineMemory,
        .journalAppend,
        .journalRecover,
        .uploadThroughput,
        .decide,
        .statsAudience,
        .setupFirstAction,
    ]
}

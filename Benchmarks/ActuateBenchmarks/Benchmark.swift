import Foundation

/// One benchmark: a name to filter on and a body that measures and returns figures.
///
/// To add one, write a `static let` in an extension of `Benchmark` in its own file and list it in
/// ``BenchmarkCatalog/all``.
struct Benchmark: Sendable {
    /// A dotted name such as `journal.append`; `--filter` matches its prefix.
    let name: String
    /// One line saying what is measured.
    let summary: String
    /// Measures, and returns what it measured.
    let run: @Sendable (BenchmarkContext) throws -> [Figure]
}

/// How a benchmark should run.
struct BenchmarkContext: Sendable {
    /// A short smoke run for CI: fewer items, fewer rounds.
    let quick: Bool
    /// Rounds run and discarded before measuring.
    var warmupRounds: Int { quick ? 1 : 1 }
    /// Rounds measured: at least three, so every figure has a min and a max besides its median.
    var measuredRounds: Int { quick ? 3 : 5 }

    /// Picks the full or the quick value.
    func size(_ full: Int, quick quickSize: Int) -> Int {
        quick ? quickSize : full
    }

    /// Runs `round` for the warm-up rounds, then for the measured rounds, and returns the measured values.
    func rounds(_ round: () throws -> Double) rethrows -> [Double] {
        for _ in 0..<warmupRounds { _ = try round() }
        return try (0..<measuredRounds).map { _ in try round() }
    }

    /// Runs every variant once per round, in turn (baseline, case, baseline, case, …), so that a baseline and
    /// the cases compared with it see the same state of a noisy machine. Returns one list of samples per
    /// variant, in the order given; warm-up rounds are run the same way and discarded.
    func interleavedRounds(_ variants: [() throws -> Double]) throws -> [[Double]] {
        for _ in 0..<warmupRounds {
            for variant in variants { _ = try variant() }
        }
        var samples = Array(repeating: [Double](), count: variants.count)
        for _ in 0..<measuredRounds {
            for (index, variant) in variants.enumerated() { samples[index].append(try variant()) }
        }
        return samples
    }

    /// ``interleavedRounds(_:)`` for variants that cannot fail.
    func interleavedRounds(_ variants: [() -> Double]) -> [[Double]] {
        // The throwing form only rethrows what a variant throws, and these throw nothing.
        (try? interleavedRounds(variants.map { variant in { () throws -> Double in variant() } })) ?? []
    }

    /// The seconds `body` takes.
    func seconds(_ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

/// Values of one quantity over several rounds.
struct Measurement: Codable, Sendable {
    /// What was measured, for example `FileEventStore synced`.
    var label: String
    /// The unit of the samples, for example `events/s` or `ms`.
    var unit: String
    /// One value per measured round.
    var samples: [Double]

    var median: Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    var min: Double { samples.min() ?? .nan }
    var max: Double { samples.max() ?? .nan }

    /// The spread of the samples, max less min, as a fraction of the median: how steady the quantity was.
    var spread: Double { median == 0 ? 0 : (max - min) / median }
}

/// A measured result, with the baseline it is compared with in the same run.
struct Figure: Codable, Sendable {
    /// The benchmark and case, for example `journal.append synced`.
    var name: String
    /// What Actuate did.
    var subject: Measurement
    /// What it is compared with.
    var baseline: Measurement?
    /// Whether larger values are better (rates) or worse (times).
    var higherIsBetter: Bool
    /// What exactly was compared.
    var note: String
    /// The targets of the performance issue this figure is held to; none for most.
    var targets: [FigureTarget] = []

    /// This figure held to a target: its `quantity` at most `bound` when lower is better, at least when higher is.
    func target(_ quantity: FigureTarget.Quantity, _ bound: Double) -> Figure {
        var figure = self
        figure.targets.append(FigureTarget(quantity: quantity, bound: bound, higherIsBetter: higherIsBetter))
        return figure
    }

    /// The values a target is checked against, one per measured round.
    func values(of quantity: FigureTarget.Quantity) -> [Double] {
        switch quantity {
        case .median: return subject.samples
        case .ratio: return roundRatios.isEmpty ? ratio.map { [$0] } ?? [] : roundRatios
        }
    }

    /// The subject over the baseline in each round, when both were measured in the same, interleaved rounds.
    var roundRatios: [Double] {
        guard let baseline, baseline.samples.count == subject.samples.count else { return [] }
        return zip(subject.samples, baseline.samples).map { $0 / $1 }
    }

    /// The median of the per-round ratios when the rounds were interleaved; otherwise the subject's median
    /// over the baseline's median.
    var ratio: Double? {
        guard let baseline else { return nil }
        let ratios = Measurement(label: "ratio", unit: "×", samples: roundRatios)
        return ratios.samples.isEmpty ? subject.median / baseline.median : ratios.median
    }
}

/// A bound from the performance issue that a figure's median or ratio should meet.
struct FigureTarget: Codable, Sendable {
    /// What is held to the bound.
    enum Quantity: String, Codable, Sendable {
        /// The subject's median.
        case median
        /// The median of the per-round ratios of subject over baseline.
        case ratio
    }

    var quantity: Quantity
    var bound: Double
    /// Whether the quantity should be at least the bound rather than at most.
    var higherIsBetter: Bool

    /// Whether `value` meets the bound.
    func isMet(by value: Double) -> Bool {
        higherIsBetter ? value >= bound : value <= bound
    }
}

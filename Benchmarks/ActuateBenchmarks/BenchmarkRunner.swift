import Foundation

/// Parses the command line, runs the selected benchmarks and reports their figures.
///
/// `actuate-bench [--filter PREFIX] [--quick] [--json PATH] [--list]`
struct BenchmarkRunner {
    var filter: String?
    var quick = false
    var jsonPath: String?
    var list = false

    /// Reads options from the arguments after the program name.
    init(arguments: [String]) throws {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--filter": filter = try Self.value(after: argument, in: &remaining)
            case "--json": jsonPath = try Self.value(after: argument, in: &remaining)
            case "--quick": quick = true
            case "--list": list = true
            case "--help", "-h": throw BenchmarkUsage.help
            default: throw BenchmarkUsage.unknown(argument)
            }
        }
    }

    /// Runs the selected benchmarks, printing each figure as it is measured.
    func run(_ benchmarks: [Benchmark]) throws {
        let selected = benchmarks.filter { filter.map($0.name.hasPrefix) ?? true }
        if list || selected.isEmpty {
            if selected.isEmpty { print("No benchmark matches \(filter ?? "")") }
            for benchmark in benchmarks { print("\(benchmark.name)\t\(benchmark.summary)") }
            return
        }
        let context = BenchmarkContext(quick: quick)
        print(
            "actuate-bench: \(context.warmupRounds) warm-up + \(context.measuredRounds) measured rounds"
                + (quick ? " (quick)" : "")
        )
        var figures: [Figure] = []
        for benchmark in selected {
            print("\n== \(benchmark.name): \(benchmark.summary)")
            for figure in try benchmark.run(context) {
                Self.printFigure(figure)
                figures.append(figure)
            }
        }
        if let jsonPath {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(figures).write(to: URL(fileURLWithPath: jsonPath))
            print("\nWrote \(figures.count) figures to \(jsonPath)")
        }
    }

    private static func printFigure(_ figure: Figure) {
        print("-- \(figure.name)")
        printMeasurement(figure.subject)
        if let baseline = figure.baseline { printMeasurement(baseline) }
        if let ratio = figure.ratio {
            let direction = figure.higherIsBetter ? "higher is better" : "lower is better"
            let ratios = figure.roundRatios
            let spread =
                ratios.isEmpty
                ? "medians' ratio"
                : "median of \(ratios.count) per-round ratios, min \(format(ratios.min() ?? .nan, digits: 2))×, "
                    + "max \(format(ratios.max() ?? .nan, digits: 2))×"
            print("   ratio \(format(ratio, digits: 2))× (\(direction); \(spread))")
        }
        for target in figure.targets { print("   \(targetLine(target, of: figure))") }
        if !figure.note.isEmpty { print("   \(figure.note)") }
    }

    /// Whether the figure meets `target` at its median, and in how many rounds.
    private static func targetLine(_ target: FigureTarget, of figure: Figure) -> String {
        let values = figure.values(of: target.quantity)
        let median = Measurement(label: "", unit: "", samples: values).median
        let rounds = values.filter(target.isMet(by:)).count
        let unit = target.quantity == .ratio ? "×" : " \(figure.subject.unit)"
        let bound = "\(target.higherIsBetter ? "≥" : "≤") \(format(target.bound))\(unit)"
        return "target: \(target.quantity.rawValue) \(bound): \(target.isMet(by: median) ? "MET" : "missed") "
            + "(median \(format(median))\(unit); met in \(rounds) of \(values.count) rounds)"
    }

    private static func printMeasurement(_ measurement: Measurement) {
        let label = measurement.label.padding(toLength: 44, withPad: " ", startingAt: 0)
        print(
            "   \(label) median \(format(measurement.median)) \(measurement.unit)"
                + "  (min \(format(measurement.min)), max \(format(measurement.max)), "
                + "spread \(format(measurement.spread * 100, digits: 0))%)"
        )
    }

    static func format(_ value: Double, digits: Int? = nil) -> String {
        let digits = digits ?? (value >= 100 ? 0 : value >= 10 ? 1 : 2)
        return String(format: "%.\(digits)f", value)
    }

    private static func value(after option: String, in arguments: inout ArraySlice<String>) throws -> String {
        guard let value = arguments.popFirst() else { throw BenchmarkUsage.missingValue(option) }
        return value
    }
}

/// Why the command line was not accepted.
enum BenchmarkUsage: Error, CustomStringConvertible {
    case help
    case unknown(String)
    case missingValue(String)

    var description: String {
        let usage = "usage: actuate-bench [--filter PREFIX] [--quick] [--json PATH] [--list]"
        switch self {
        case .help: return usage
        case .unknown(let argument): return "unknown argument \(argument)\n\(usage)"
        case .missingValue(let option): return "\(option) needs a value\n\(usage)"
        }
    }
}

import Foundation

/// Compares the JSON of `Warehouse/run_statistics.py --json` with `actuate stats --json`: every field the SQL
/// computes must be in both, counts equal, rates and interval bounds within 1e-9, and durations within the
/// duration sketch's documented 1% (the SQL's are exact).
enum StatisticsParity {
    /// The fields whose Swift value comes from the duration sketch.
    static let sketchedKeys: Set<String> = ["medianDurationSeconds", "p95DurationSeconds"]

    /// The differences, each with its JSON path; empty when the two agree.
    static func differences(sql: Any, swift: Any, path: String = "$") -> [String] {
        switch (sql, swift) {
        case (let sql as [String: Any], let swift as [String: Any]):
            var found: [String] = []
            for (key, value) in sql.sorted(by: { $0.key < $1.key }) {
                // Series are left to actuate stats; the SQL lists none.
                if key == "series" { continue }
                guard let other = swift[key] else {
                    found.append("\(path).\(key): \(value) in SQL, missing from actuate stats")
                    continue
                }
                if sketchedKeys.contains(key), let exact = number(value), let sketched = number(other) {
                    if abs(sketched - exact) > 0.01 * abs(exact) + 1e-12 {
                        found.append("\(path).\(key): \(exact) exact in SQL, \(sketched) from the sketch (over 1%)")
                    }
                    continue
                }
                found += differences(sql: value, swift: other, path: "\(path).\(key)")
            }
            for key in swift.keys where sql[key] == nil && comparedOptionals.contains(key) {
                found.append("\(path).\(key): missing from SQL, \(swift[key]!) in actuate stats")
            }
            return found
        case (let sql as [Any], let swift as [Any]):
            guard sql.count == swift.count else {
                return ["\(path): \(sql.count) elements in SQL, \(swift.count) in actuate stats"]
            }
            return zip(sql, swift).enumerated().flatMap { index, pair in
                differences(sql: pair.0, swift: pair.1, path: "\(path)[\(index)]")
            }
        default:
            if let left = number(sql), let right = number(swift) {
                // Counts are whole and must be equal; rates and bounds may differ in their last bits.
                let bothWhole = left == left.rounded() && right == right.rounded()
                if bothWhole ? left != right : abs(left - right) > 1e-9 {
                    return ["\(path): \(left) in SQL, \(right) in actuate stats"]
                }
                return []
            }
            if let left = sql as? String, let right = swift as? String {
                return left == right ? [] : ["\(path): \"\(left)\" in SQL, \"\(right)\" in actuate stats"]
            }
            return ["\(path): \(sql) in SQL, \(swift) in actuate stats"]
        }
    }

    /// Optional figures that SQL must give whenever actuate stats gives them.
    private static let comparedOptionals: Set<String> = [
        "clickThroughRate", "clickThroughRateInterval", "closeRate", "closeRateInterval", "visitClickThroughRate",
        "visitClickThroughRateInterval", "contributionRate", "failureRate", "failureRateInterval",
        "medianDurationSeconds", "p95DurationSeconds", "testRate", "testRateInterval", "controlRate",
        "controlRateInterval", "lift", "liftInterval", "visitorsPerGroupNeeded", "additionalVisitorsPerGroupNeeded",
    ]

    private static func number(_ value: Any) -> Double? {
        if let number = value as? Int { return Double(number) }
        if let number = value as? Double { return number }
        return (value as? NSNumber)?.doubleValue
    }
}

/// Runs `Warehouse/run_statistics.py` with the virtual environment `.ci/run` makes (`.build/warehouse-venv`).
enum WarehouseRunner {
    /// The package's root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The JSON object the SQL computes on `engine` over the NDJSON files.
    static func statistics(engine: String, files: [String]) throws -> [String: Any] {
        let venvPython = root.appendingPathComponent(".build/warehouse-venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: venvPython) else {
            throw Failure(
                description: "no \(venvPython): create it as .ci/run does (python3 -m venv .build/warehouse-venv; "
                    + ".build/warehouse-venv/bin/pip install duckdb chdb-core-lite)"
            )
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: venvPython)
        process.arguments =
            [root.appendingPathComponent("Warehouse/run_statistics.py").path, "--engine", engine] + files + ["--json"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "run_statistics.py --engine \(engine) exited \(process.terminationStatus): \(errorText)"
            )
        }
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure(description: "run_statistics.py --engine \(engine) printed no JSON object")
        }
        return object
    }
}

import Foundation
import Testing

/// A debug report with many actions over a long axis, for the timeline page's tests.
enum BurstyReport {
    /// Writes a format 1 report of three bursts of actions far apart: 36 in the first 40 ms (the 15th
    /// fails), 8 around 3 s (one cancelled) and one at 9 s.
    static func write(to path: String) throws -> String {
        let lanes = [("main", "com.apple.main-thread"), ("main", "shop.sync"), ("background", "shop.sync")]
        let kinds = [("Catalog", "Show Product"), ("Cart", "Add Item"), ("Checkout", "Pay"), ("Search", "Query")]
        var entries: [[String: Any]] = []
        func add(
            session: String,
            queue: String,
            feature: String,
            action: String,
            start: Int64,
            duration: Int64,
            outcome: [String: Any]
        ) {
            let id = entries.count + 1
            entries.append([
                "requestID": id, "sessionName": session, "featureName": feature,
                "featurePath": "Shop/\(feature)Feature", "actionName": action, "queueLabel": queue,
                "inputDescription": "item \(id)", "userInitiated": true, "source": ["kind": "application"],
                "startDate": "2026-11-23T10:15:01.000000Z", "startOffsetNanoseconds": 5_000_000_000 + start,
                "durationNanoseconds": duration, "outcome": outcome,
            ])
        }
        for index in 0..<36 {
            let (session, queue) = lanes[index % 3]
            let (feature, action) = kinds[index % 4]
            let failed = index == 14
            add(
                session: session,
                queue: queue,
                feature: failed ? "Checkout" : feature,
                action: failed ? "Pay" : action,
                start: Int64(index) * 1_100_000,
                duration: 800_000 + Int64(index % 4) * 700_000,
                outcome: failed ? ["kind": "failure", "message": "Card declined"] : ["kind": "success"]
            )
        }
        for index in 0..<8 {
            add(
                session: "background",
                queue: "shop.sync",
                feature: "Sync",
                action: "Upload Batch",
                start: 3_000_000_000 + Int64(index) * 2_000_000,
                duration: 1_500_000,
                outcome: ["kind": index == 5 ? "cancelled" : "success"]
            )
        }
        add(
            session: "main",
            queue: "shop.sync",
            feature: "Sync",
            action: "Flush",
            start: 9_000_000_000,
            duration: 30_000_000,
            outcome: ["kind": "success"]
        )
        var document = try #require(
            try JSONSerialization.jsonObject(with: Fixtures.data("report-v1.json")) as? [String: Any]
        )
        document["timeline"] = ["maxEntries": 200, "entries": entries]
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: path))
        return path
    }
}

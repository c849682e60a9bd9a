import Foundation
import Testing

@testable import ActuateCLI

@Suite("actuate dump --trace")
struct TraceEventsTests {
    private func writeTrace() throws -> (events: [[String: Any]], document: [String: Any]) {
        let scratch = try ScratchDirectory()
        let result = runTool(["dump", Fixtures.path("report-v1.json"), "--trace", scratch.path("trace.json")])
        #expect(result.status == 0)
        #expect(result.output.contains("Wrote the trace (10 actions) to \(scratch.path("trace.json"))"))
        let data = try Data(contentsOf: URL(fileURLWithPath: scratch.path("trace.json")))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(document["traceEvents"] as? [[String: Any]])
        return (events, document)
    }

    @Test("every event has the Trace Event Format's required fields, and complete events a duration")
    func requiredFields() throws {
        let (events, document) = try writeTrace()
        #expect(document["displayTimeUnit"] as? String == "ms")
        for event in events {
            #expect(event["name"] is String, "name in \(event)")
            let phase = try #require(event["ph"] as? String)
            #expect(["X", "B", "M"].contains(phase))
            #expect(event["ts"] is NSNumber, "ts in \(event)")
            #expect(event["pid"] is NSNumber, "pid in \(event)")
            #expect(event["tid"] is NSNumber, "tid in \(event)")
            if phase == "X" {
                let duration = try #require(event["dur"] as? Double)
                #expect(duration >= 0)
            }
        }
        let actions = events.filter { $0["ph"] as? String != "M" }
        #expect(actions.count == 10)
        #expect(actions.filter { $0["ph"] as? String == "B" }.map { $0["name"] as? String } == ["Sync › Watch Changes"])
    }

    @Test("times are microseconds from the earliest start; sessions are processes and queues are threads")
    func timesAndTracks() throws {
        let (events, _) = try writeTrace()
        let first = try #require(events.first { ($0["args"] as? [String: Any])?["requestID"] as? Int == 1 })
        #expect(first["ts"] as? Double == 0)
        #expect(first["dur"] as? Double == 250)
        let failed = try #require(events.first { ($0["args"] as? [String: Any])?["requestID"] as? Int == 6 })
        #expect(failed["ts"] as? Double == 11_000)
        #expect(failed["cname"] as? String == "terrible")
        let args = try #require(failed["args"] as? [String: Any])
        #expect(args["outcome"] as? String == "failureWithFeatureTermination")
        #expect(args["message"] as? String == "Card declined")
        let processNames = events.filter { $0["name"] as? String == "process_name" }
            .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(processNames == ["session main", "session background"])
        let threadNames = events.filter { $0["name"] as? String == "thread_name" }
            .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(threadNames.contains("com.apple.main-thread"))
        #expect(threadNames.contains("shop-demo.sync"))
    }

    @Test("slices on one thread never overlap without nesting, as trace viewers require")
    func slicesNest() throws {
        let (events, _) = try writeTrace()
        let slices = events.filter { $0["ph"] as? String == "X" }
        let byThread = Dictionary(grouping: slices) { "\($0["pid"] ?? 0)/\($0["tid"] ?? 0)" }
        for (_, thread) in byThread {
            let intervals = thread.compactMap { event -> (Double, Double)? in
                guard let start = event["ts"] as? Double, let duration = event["dur"] as? Double else { return nil }
                return (start, start + duration)
            }
            for (index, a) in intervals.enumerated() {
                for b in intervals[(index + 1)...] {
                    let disjoint = a.1 <= b.0 || b.1 <= a.0
                    let nested = (a.0 <= b.0 && b.1 <= a.1) || (b.0 <= a.0 && a.1 <= b.1)
                    #expect(disjoint || nested, "\(a) and \(b) overlap on one thread")
                }
            }
        }
        let sync = slices.filter { ($0["args"] as? [String: Any])?["queue"] as? String == "shop-demo.sync" }
        #expect(Set(sync.map { "\($0["tid"] ?? 0)" }).count == 2)
    }
}

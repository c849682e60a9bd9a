import Foundation

/// Writes a timeline in the Trace Event Format (the JSON object form), which Perfetto and
/// `chrome://tracing` open: a process per session, a thread per queue (more when actions on one queue
/// overlap without nesting), a complete (`X`) event per finished action and a begin (`B`) event, never ended,
/// per action still running.
package struct TraceEvents {
    let report: ReportDocument

    package init(report: ReportDocument) {
        self.report = report
    }

    package func jsonData() throws -> Data {
        let layout = TimelineLayout(entries: report.timeline.entries, packing: .nested)
        var events: [[String: Any]] = []
        var processIDs: [String: Int] = [:]
        var threadIDs: [String: Int] = [:]
        for (index, lane) in layout.lanes.enumerated() {
            let pid: Int
            if let existing = processIDs[lane.session] {
                pid = existing
            } else {
                pid = processIDs.count + 1
                processIDs[lane.session] = pid
                events.append(metadata("process_name", pid: pid, tid: 0, value: "session \(lane.session)"))
                events.append(metadata("process_sort_index", pid: pid, tid: 0, value: pid))
            }
            for row in 0..<lane.rowCount {
                let tid = threadIDs.count + 1
                threadIDs["\(index)/\(row)"] = tid
                let name = row == 0 ? lane.queue : "\(lane.queue) (overlap \(row))"
                events.append(metadata("thread_name", pid: pid, tid: tid, value: name))
                events.append(metadata("thread_sort_index", pid: pid, tid: tid, value: tid))
            }
        }
        for placement in layout.placements {
            let entry = placement.entry
            let lane = layout.lanes[placement.lane]
            var event: [String: Any] = [
                "name": entry.title,
                "cat": "action," + entry.status.rawValue,
                "ts": microseconds(placement.start),
                "pid": processIDs[lane.session] ?? 0,
                "tid": threadIDs["\(placement.lane)/\(placement.row)"] ?? 0,
                "args": arguments(for: entry),
            ]
            if let duration = entry.durationNanoseconds {
                event["ph"] = "X"
                event["dur"] = microseconds(duration)
            } else {
                event["ph"] = "B"
            }
            switch entry.status {
            case .failure: event["cname"] = "terrible"
            case .cancelled: event["cname"] = "yellow"
            case .success, .running: break
            }
            events.append(event)
        }
        let document: [String: Any] = [
            "traceEvents": events,
            "displayTimeUnit": "ms",
            "otherData": [
                "generator": "actuate dump --trace",
                "reportFormatVersion": report.formatVersion,
                "generatedAt": report.generatedAt,
            ],
        ]
        return try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
    }

    private func metadata(_ name: String, pid: Int, tid: Int, value: Any) -> [String: Any] {
        let key = name.hasSuffix("sort_index") ? "sort_index" : "name"
        return ["name": name, "ph": "M", "ts": 0, "pid": pid, "tid": tid, "args": [key: value]]
    }

    private func arguments(for entry: ReportTimelineEntry) -> [String: Any] {
        var arguments: [String: Any] = [
            "requestID": entry.requestID,
            "feature": entry.featurePath,
            "input": entry.inputDescription,
            "queue": entry.queueLabel,
            "source": entry.source.description,
            "userInitiated": entry.userInitiated,
            "startDate": entry.startDate,
            "outcome": entry.outcome?.kind ?? "running",
        ]
        if let message = entry.outcome?.message { arguments["message"] = message }
        return arguments
    }

    /// Trace timestamps are microseconds; keep nanosecond precision as decimals.
    private func microseconds(_ nanoseconds: Int64) -> Double {
        Double(nanoseconds) / 1_000
    }
}

import Foundation

/// Writes a timeline as one self-contained HTML page: the data, the styles and the script that draws it are
/// all inline, so the page opens without a network.
///
/// The chart has a lane per session and queue and a bar per action, coloured by outcome (failures in red,
/// `#d62728`). Hovering a bar shows a summary; clicking it shows every detail, and so does opening the page at
/// `#request-N` for the action with request id N. Once the script has drawn every
/// bar it sets `data-render="ok"` on `<body>` and the chart's position in `data-chart-rect`, which the browser
/// test reads; a script error sets `data-render="error"` instead.
struct TimelinePage {
    let report: ReportDocument

    /// The colour of failed actions' bars.
    static let failureColor = "#d62728"
    /// The colour of successful actions' bars.
    static let successColor = "#2a78c2"

    func html() throws -> String {
        let layout = TimelineLayout(entries: report.timeline.entries, packing: .disjoint)
        let data = try TimelinePageData(report: report, layout: layout).json()
        let failures = layout.placements.filter { $0.entry.status == .failure }.count
        let sessions = Set(layout.lanes.map(\.session)).count
        let summary =
            "\(layout.placements.count) actions in \(sessions) session\(sessions == 1 ? "" : "s"), "
            + "\(failures) failed, over \(DurationText.format(nanoseconds: layout.span))"
        return Self.template
            .replacingOccurrences(of: "{{title}}", with: Self.escape("Actuate timeline, \(report.generatedAt)"))
            .replacingOccurrences(of: "{{summary}}", with: Self.escape(summary))
            .replacingOccurrences(of: "{{failureColor}}", with: Self.failureColor)
            .replacingOccurrences(of: "{{successColor}}", with: Self.successColor)
            .replacingOccurrences(of: "{{script}}", with: TimelinePageScript.source)
            .replacingOccurrences(of: "{{data}}", with: data)
    }

    /// Escapes text for HTML element content and attribute values.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }

    private static let template = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}}</title>
        <style>
        :root { --failure: {{failureColor}}; --success: {{successColor}}; --cancelled: #e8a33d; --running: #8e959c; }
        * { box-sizing: border-box; }
        body { margin: 0; padding: 16px 20px; font: 13px/1.4 system-ui, sans-serif; color: #1d232a; background: #fff; }
        h1 { font-size: 18px; margin: 0 0 4px; }
        #summary { color: #4a535c; margin-bottom: 10px; }
        #legend { display: flex; gap: 16px; margin-bottom: 12px; color: #4a535c; }
        #legend span::before { content: ""; display: inline-block; width: 10px; height: 10px; margin-right: 5px;
          border-radius: 50%; border: 2px solid currentColor; vertical-align: -1px; }
        #legend .success { color: var(--success); } #legend .failure { color: var(--failure); }
        #legend .cancelled { color: var(--cancelled); } #legend .running { color: var(--running); }
        #chart { position: relative; border-top: 1px solid #d5dae0; }
        .axis { position: relative; height: 22px; margin-left: 240px; border-bottom: 1px solid #d5dae0; }
        .tick { position: absolute; top: 0; bottom: 0; border-left: 1px solid #d5dae0; padding-left: 3px;
          font-size: 11px; color: #6a737d; white-space: nowrap; }
        .lane { display: flex; border-bottom: 1px solid #e6e9ed; }
        .lane.first-of-session { border-top: 2px solid #aab3bd; }
        .lane-label { width: 240px; flex: none; padding: 4px 8px 4px 0; overflow: hidden; text-overflow: ellipsis;
          white-space: nowrap; }
        .lane-label .session { font-weight: 600; }
        .lane-label .queue { color: #6a737d; font-family: ui-monospace, monospace; font-size: 12px; }
        .lane-rows { position: relative; flex: 1; }
        .bar { position: absolute; height: 18px; min-width: 4px; border-radius: 3px; cursor: pointer; overflow: hidden;
          white-space: nowrap; color: #fff; font-size: 11px; line-height: 18px; padding: 0 4px; }
        .bar.success { background: var(--success); }
        .bar.failure { background: var(--failure); }
        .bar.cancelled { background: var(--cancelled); }
        .bar.running { background: repeating-linear-gradient(45deg, var(--running), var(--running) 4px, #b9bec4 4px,
          #b9bec4 8px); }
        .bar.selected { outline: 2px solid #1d232a; outline-offset: 1px; }
        #tooltip { position: fixed; pointer-events: none; background: #1d232a; color: #fff; padding: 6px 8px;
          border-radius: 4px; font-size: 12px; max-width: 420px; z-index: 2; }
        #details { margin-top: 16px; border: 1px solid #d5dae0; border-radius: 4px; padding: 10px 12px; min-height: 40px; }
        #details table { border-collapse: collapse; }
        #details th { text-align: left; padding: 2px 16px 2px 0; color: #4a535c; font-weight: 500; vertical-align: top; }
        #details td { padding: 2px 0; font-family: ui-monospace, monospace; white-space: pre-wrap; word-break: break-word; }
        #render-status { margin-top: 8px; color: #6a737d; font-size: 11px; }
        </style>
        </head>
        <body data-render="pending">
        <h1>{{title}}</h1>
        <div id="summary">{{summary}}</div>
        <div id="legend"><span class="success">success</span><span class="failure">failed</span>
        <span class="cancelled">cancelled</span><span class="running">still running</span></div>
        <div id="chart"></div>
        <div id="details">Click a bar to see every detail of its action.</div>
        <div id="tooltip" hidden></div>
        <div id="render-status">The chart needs JavaScript.</div>
        <script type="application/json" id="timeline-data">{{data}}</script>
        <script>
        {{script}}
        </script>
        </body>
        </html>

        """
}

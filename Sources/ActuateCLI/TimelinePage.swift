import ActuatePersonalization
import Foundation

/// Writes a timeline as one self-contained HTML page: the data, the styles and the script that draws it are
/// all inline, so the page opens without a network, and a Content Security Policy
/// (``PageTemplate/contentSecurityPolicy``, the statistics page's) forbids every request. The template is filled
/// in one pass (``PageTemplate``), so a report's text that holds a placeholder such as `{{data}}` stays text.
///
/// The chart has a lane per session and queue and a bar per action, coloured by outcome (failures in red,
/// `#d62728`); long idle gaps are drawn as short marked breaks (``TimelineGaps``), the axis zooms, and a table
/// below lists the actions, sorted and filtered (see ``TimelinePageScript``). Hovering a bar shows a summary; clicking it shows every detail, and so does opening the page at
/// `#request-N` for the action with request id N. Once the script has drawn every
/// bar it sets `data-render="ok"` on `<body>` and the chart's position in `data-chart-rect`, which the browser
/// test reads; a script error sets `data-render="error"` instead.
package struct TimelinePage {
    let report: ReportDocument

    package init(report: ReportDocument) {
        self.report = report
    }

    /// The colour of failed actions' bars.
    static let failureColor = "#d62728"
    /// The colour of successful actions' bars.
    static let successColor = "#2a78c2"

    package func html() throws -> String {
        let layout = TimelineLayout(entries: report.timeline.entries, packing: .disjoint)
        let gaps = TimelineGaps(layout: layout)
        let data = try TimelinePageData(report: report, layout: layout, gaps: gaps).json()
        let failures = layout.placements.filter { $0.entry.status == .failure }.count
        let cancellations = layout.placements.filter { $0.entry.status == .cancelled }.count
        let sessions = Set(layout.lanes.map(\.session)).count
        // The words of actuate dump and Timeline.textDump(): cancellations counted on their own.
        let summary =
            "\(layout.placements.count) actions in \(sessions) session\(sessions == 1 ? "" : "s"), "
            + "\(failures) failed, \(cancellations) cancelled, over \(DurationText.format(nanoseconds: layout.span))"
        return PageTemplate(Self.template).filled([
            "contentSecurityPolicy": PageTemplate.contentSecurityPolicy,
            "title": PageTemplate.escape("Actuate timeline, \(report.generatedAt)"),
            "summary": PageTemplate.escape(summary),
            "gapsLabel": PageTemplate.escape(Self.gapsLabel(gaps)),
            "gapsTitle": PageTemplate.escape(Self.gapsTitle),
            "failureColor": Self.failureColor,
            "successColor": Self.successColor,
            "script": TimelinePageScript.source,
            "data": data,
        ])
    }

    /// The label of the checkbox that collapses idle gaps, saying how many there are and how long they last.
    static func gapsLabel(_ gaps: TimelineGaps) -> String {
        guard !gaps.collapsed.isEmpty else { return "collapse idle gaps (none is long enough)" }
        let hidden = gaps.collapsed.reduce(Int64(0)) { $0 + $1.duration }
        let count = gaps.collapsed.count
        return "collapse \(count) idle gap\(count == 1 ? "" : "s") (\(DurationText.format(nanoseconds: hidden)))"
    }

    /// What the checkbox that collapses idle gaps does.
    static let gapsTitle =
        "A stretch with no action running that is longer than "
        + "\(Int(TimelineGaps.collapseFraction * 100))% of the time drawn to scale is drawn as a short break"

    private static let template = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="{{contentSecurityPolicy}}">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}}</title>
        <style>
        :root { --failure: {{failureColor}}; --success: {{successColor}}; --cancelled: #e8a33d; --running: #8e959c;
          --label-width: 240px; --line: #d5dae0; --muted: #5c6670; }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        body { margin: 0; padding: 16px 20px; font: 13px/1.4 system-ui, sans-serif; color: #1d232a; background: #fff; }
        h1 { font-size: 18px; margin: 0 0 4px; }
        h2 { font-size: 15px; margin: 0; }
        #summary { color: var(--muted); margin-bottom: 10px; }
        #toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; margin-bottom: 8px; }
        #legend { display: flex; gap: 14px; color: var(--muted); }
        #legend span::before { content: ""; display: inline-block; width: 10px; height: 10px; margin-right: 5px;
          border-radius: 2px; background: currentColor; vertical-align: -1px; }
        #legend .success { color: var(--success); } #legend .failure { color: var(--failure); }
        #legend .cancelled { color: var(--cancelled); } #legend .running { color: var(--running); }
        #zoom { display: flex; align-items: center; gap: 6px; margin-left: auto; }
        button { font: inherit; font-size: 12px; padding: 2px 9px; border: 1px solid #b7c0c9; border-radius: 4px;
          background: #f6f8fa; color: #1d232a; cursor: pointer; }
        button:hover:not(:disabled) { background: #eaeef2; }
        button:disabled { color: #a0a8b0; cursor: default; }
        #view-range { color: var(--muted); font-variant-numeric: tabular-nums; min-width: 190px; text-align: right; }
        label { color: #3a434c; user-select: none; }
        #chart { position: relative; border-top: 1px solid var(--line); user-select: none; }
        .axis-row { display: flex; position: sticky; top: 0; z-index: 3; background: #fff; border-bottom: 1px solid var(--line); }
        .axis-corner { width: var(--label-width); flex: none; padding: 4px 8px 0 0; color: #8a939c; font-size: 11px; }
        .axis { position: relative; flex: 1; height: 40px; overflow: hidden; cursor: crosshair;
          background: linear-gradient(#fff, #f4f6f8); }
        .tick { position: absolute; top: 0; height: 20px; border-left: 1px solid #b7c0c9; padding: 3px 0 0 3px;
          font-size: 11px; color: #5c6670; white-space: nowrap; font-variant-numeric: tabular-nums; }
        .break-label { position: absolute; bottom: 3px; height: 16px; padding: 0 6px; border-radius: 8px;
          background: #fff4d6; border: 1px solid #e0c46c; color: #6b5300; font-size: 11px; line-height: 14px;
          white-space: nowrap; }
        .overlay { position: absolute; left: var(--label-width); right: 0; top: 41px; bottom: 0; pointer-events: none; z-index: 4; }
        .break { position: absolute; top: 0; bottom: 0; border-left: 1px solid rgba(201, 162, 39, 0.45);
          border-right: 1px solid rgba(201, 162, 39, 0.45);
          background: repeating-linear-gradient(135deg, rgba(201, 162, 39, 0.16) 0 3px, rgba(255, 255, 255, 0) 3px 6px); }
        .selection { position: absolute; top: 0; bottom: 0; background: rgba(42, 120, 194, 0.15);
          border-left: 1px solid #2a78c2; border-right: 1px solid #2a78c2; }
        .lane { display: flex; border-bottom: 1px solid #e6e9ed; }
        .lane.first-of-session { border-top: 2px solid #aab3bd; }
        .lane-label { width: var(--label-width); flex: none; padding: 4px 8px 4px 0; overflow: hidden; text-overflow: ellipsis;
          white-space: nowrap; }
        .lane-label .session { font-weight: 600; }
        .lane-label .queue { color: #6a737d; font-family: ui-monospace, monospace; font-size: 12px; overflow: hidden; }
        .lane-rows { position: relative; flex: 1; overflow: hidden; }
        .bar, .bar-label { position: absolute; height: 20px; font: 11px/20px system-ui, sans-serif; white-space: nowrap; }
        .bar { border-radius: 3px; cursor: pointer; overflow: hidden; color: #fff; padding: 0 5px;
          box-shadow: inset -1px 0 0 rgba(255, 255, 255, 0.6); }
        .bar-label { pointer-events: none; color: #3a434c; }
        .bar-label.failure { color: #a51d1e; }
        .bar.success { background: var(--success); }
        .bar.failure { background: var(--failure); }
        .bar.cancelled { background: var(--cancelled); }
        .bar.running { background: repeating-linear-gradient(45deg, var(--running), var(--running) 4px, #b9bec4 4px,
          #b9bec4 8px); }
        .bar.dimmed { opacity: 0.18; }
        .bar.selected, .bar.hovered { outline: 2px solid #1d232a; outline-offset: 1px; z-index: 1; }
        .empty { margin-left: var(--label-width); color: var(--muted); }
        #hint { color: #8a939c; font-size: 11px; margin: 4px 0 0 var(--label-width); }
        #tooltip { position: fixed; pointer-events: none; background: #1d232a; color: #fff; padding: 6px 8px;
          border-radius: 4px; font-size: 12px; max-width: 420px; z-index: 5; }
        #details { margin-top: 14px; border: 1px solid var(--line); border-radius: 4px; padding: 10px 12px; min-height: 40px; }
        #details table { border-collapse: collapse; }
        #details th { text-align: left; padding: 2px 16px 2px 0; color: #4a535c; font-weight: 500; vertical-align: top; }
        #details td { padding: 2px 0; font-family: ui-monospace, monospace; white-space: pre-wrap; word-break: break-word; }
        #list { margin-top: 18px; }
        #filters { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 14px; margin: 6px 0 8px; }
        #filters select { font: inherit; font-size: 12px; max-width: 260px; }
        #table-count { color: var(--muted); }
        #actions { width: 100%; border-collapse: collapse; font-size: 12px; }
        #actions th { text-align: left; font-weight: 600; color: #3a434c; border-bottom: 2px solid var(--line);
          padding: 4px 8px; white-space: nowrap; position: sticky; top: 0; background: #fff; }
        #actions th button { border: none; background: none; padding: 0; font-weight: 600; color: #2a5f9e; }
        #actions td { padding: 3px 8px; border-bottom: 1px solid #eef0f3; vertical-align: top; }
        #actions td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        #actions td.mono { font-family: ui-monospace, monospace; font-size: 11px; }
        #actions tr { cursor: pointer; }
        #actions tbody tr:hover { background: #f3f6f9; }
        #actions tr.selected { background: #e4eefa; }
        #actions tr.failure td:first-child { box-shadow: inset 3px 0 0 var(--failure); }
        #actions tr.failure td.outcome { color: #a51d1e; font-weight: 600; }
        #render-status { margin-top: 8px; color: #6a737d; font-size: 11px; }
        </style>
        </head>
        <body data-render="pending">
        <h1>{{title}}</h1>
        <div id="summary">{{summary}}</div>
        <div id="toolbar">
        <div id="legend"><span class="success">success</span><span class="failure">failed</span>
        <span class="cancelled">cancelled</span><span class="running">running</span></div>
        <label title="{{gapsTitle}}"><input type="checkbox" id="collapse-gaps" checked> {{gapsLabel}}</label>
        <div id="zoom"><span id="view-range"></span>
        <button type="button" id="zoom-in" title="Zoom in around the middle">+</button>
        <button type="button" id="zoom-out" title="Zoom out around the middle">−</button>
        <button type="button" id="zoom-busy" title="Zoom to the stretch where the most actions start">Busiest</button>
        <button type="button" id="zoom-reset" title="Show the whole timeline">Reset zoom</button></div>
        </div>
        <div id="chart"></div>
        <div id="hint">Drag over the time axis to zoom into a range, or turn the mouse wheel over it (shift pans). \
        Hover a bar for its summary, click it for every detail.</div>
        <div id="details">Click a bar or a row of the table to see every detail of its action.</div>
        <section id="list">
        <h2>Actions <span id="table-count"></span></h2>
        <div id="filters">
        <label>Session <select id="filter-session"><option value="">all</option></select></label>
        <label>Queue <select id="filter-queue"><option value="">all</option></select></label>
        <label>Feature <select id="filter-feature"><option value="">all</option></select></label>
        <label><input type="checkbox" id="filter-failed"> failed only</label>
        <button type="button" id="filter-clear">Clear filters</button>
        </div>
        <table id="actions">
        <thead><tr><th>#</th><th aria-sort="ascending"><button type="button" data-sort="start">Start <span class="arrow"></span></button></th>
        <th aria-sort="none"><button type="button" data-sort="duration">Duration <span class="arrow"></span></button></th>
        <th>Session</th><th>Queue</th><th>Feature</th><th>Action</th><th>Outcome</th></tr></thead>
        <tbody></tbody>
        </table>
        </section>
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

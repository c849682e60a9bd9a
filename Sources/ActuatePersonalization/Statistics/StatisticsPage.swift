import ActuateReporting
import Foundation

/// Draws a ``StatisticsReport`` as one self-contained HTML page: styles, script, data and charts are inline, a
/// Content Security Policy forbids every network request, and it opens from a file.
///
/// The page shows a funnel (shown → clicked → purchased over all content), a chart per content (impressions per day
/// as bars, CTR as a line with its 95% Wilson interval as a band), the lift of each campaign with its 95% interval
/// drawn against zero and its verdict, and the actions table (p50/p95 duration, failure rate with its interval,
/// arrival sources). Every text from the store (content names, ids, action names; they come from servers) reaches
/// the page as JSON data that the script sets with `textContent`, never as markup.
///
/// Once the script has drawn everything it sets `data-render="ok"` on `<body>` and `data-charts` to the number of
/// content charts; every chart, funnel step and lift row carries its figures in `data-` attributes, which the CI's
/// DOM check compares with `actuate stats --json`.
package struct StatisticsPage: Sendable {
    /// The report drawn.
    package var report: StatisticsReport
    /// The page's title.
    package var title: String

    /// Creates a page.
    /// - Parameters:
    ///   - report: The report to draw.
    ///   - title: The page's title, escaped when written.
    package init(report: StatisticsReport, title: String = "Actuate statistics") {
        self.report = report
        self.title = title
    }

    /// The page's HTML.
    /// - Returns: The page.
    /// - Throws: An encoding error when the figures cannot be written as JSON.
    package func html() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = String(decoding: try encoder.encode(report), as: UTF8.self)
            .replacingOccurrences(of: "<", with: "\\u003c")
            .replacingOccurrences(of: ">", with: "\\u003e")
            .replacingOccurrences(of: "&", with: "\\u0026")
        return PageTemplate(Self.template).filled([
            "contentSecurityPolicy": PageTemplate.contentSecurityPolicy,
            "title": PageTemplate.escape(title),
            "script": StatisticsPageScript.source,
            "data": data,
        ])
    }

    private static let template = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="{{contentSecurityPolicy}}">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}}</title>
        <style>
        :root { --impressions: #c9d4e1; --ctr: #c2570c; --band: rgba(230, 126, 34, 0.3); --better: #2e7d32;
          --worse: #c62828; --unknown: #8a6d00; --line: #d5dae0; --muted: #5c6670; }
        * { box-sizing: border-box; }
        body { margin: 0; padding: 16px 20px; font: 13px/1.4 system-ui, sans-serif; color: #1d232a; background: #fff; }
        h1 { font-size: 18px; margin: 0 0 4px; }
        h2 { font-size: 15px; margin: 22px 0 8px; }
        .muted, #summary { color: var(--muted); }
        #funnel { display: flex; gap: 6px; align-items: stretch; max-width: 720px; }
        .step { flex: 1; padding: 8px 10px; border-radius: 4px; background: #eef3f9; }
        .step .count { font-size: 20px; font-weight: 600; font-variant-numeric: tabular-nums; }
        .step .bar { height: 6px; background: var(--ctr); border-radius: 3px; margin-top: 6px; }
        #contents { display: grid; grid-template-columns: repeat(auto-fill, minmax(420px, 1fr)); gap: 14px; }
        .card { border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; }
        .card h3 { font-size: 14px; margin: 0 0 2px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .card svg { display: block; width: 100%; height: 170px; }
        .legend span { margin-right: 12px; }
        .legend .swatch { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: -1px; }
        table { border-collapse: collapse; font-size: 12px; }
        th { text-align: left; font-weight: 600; color: #3a434c; border-bottom: 2px solid var(--line); padding: 4px 8px; }
        td { padding: 3px 8px; border-bottom: 1px solid #eef0f3; }
        td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        .verdict-better { color: var(--better); font-weight: 600; }
        .verdict-worse { color: var(--worse); font-weight: 600; }
        .verdict-notDistinguishableYet { color: var(--unknown); font-weight: 600; }
        .lift svg { display: block; width: 360px; height: 28px; }
        #render-status { margin-top: 12px; color: #6a737d; font-size: 11px; }
        </style>
        </head>
        <body data-render="pending">
        <h1>{{title}}</h1>
        <div id="summary"></div>
        <h2>Funnel over all content</h2>
        <div id="funnel"></div>
        <h2>Content over time</h2>
        <div class="legend muted"><span><span class="swatch" style="background: var(--impressions)"></span>impressions \
        per interval</span><span><span class="swatch" style="background: var(--ctr)"></span>CTR</span><span><span \
        class="swatch" style="background: var(--band)"></span>95% Wilson interval of the CTR</span></div>
        <div id="contents"></div>
        <h2>Campaign lift against control</h2>
        <p class="muted">Lift is (test rate − control rate) / control rate; the bar is its 95% interval (Katz's log \
        method), the vertical line is zero. A campaign is better or worse only when the interval leaves out zero.</p>
        <table id="campaigns"><thead><tr><th>Campaign</th><th>Goal</th><th>Test</th><th>Control</th><th>Lift</th>\
        <th>95% interval</th><th>Verdict</th><th>Visitors per group needed</th></tr></thead><tbody></tbody></table>
        <h2>Actions</h2>
        <table id="actions"><thead><tr><th>Action</th><th>Feature</th><th>Performed</th><th>Failed</th>\
        <th>Failure rate (95% interval)</th><th>p50</th><th>p95</th><th>App</th><th>URL</th><th>Activity</th>\
        <th>Intent</th></tr></thead><tbody></tbody></table>
        <div id="render-status">The charts need JavaScript.</div>
        <script type="application/json" id="statistics-data">{{data}}</script>
        <script>
        {{script}}
        </script>
        </body>
        </html>

        """
}

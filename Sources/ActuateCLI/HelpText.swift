/// The help texts, written for people.
enum HelpText {
    static let tool = """
        actuate: look at what an Actuate app did and what it can do.

        Usage: actuate <command> [options]

        Commands:
          dump REPORT.json      Show a debug report as text, or draw its timeline
                                (--html OUT.html for a browser, --trace OUT.json for Perfetto).
          stats SOURCE...       Show content statistics from event stores, collected batch files and
                                NDJSON files, each event once, with dead letters.
          export SOURCE... --ndjson OUT
                                Write the sources' events, each once, as rows of a flat table (NDJSON).
          catalog [FILE]        Show an app's features and actions as Markdown, from the JSON that
                                `shop-demo --catalog-json` (or your app's own option) prints.
          validate RULES.json   Check a personalization rules file; list every problem with its JSON path.
          help COMMAND          Show the help of one command.

        Examples:
          swift run shop-demo --dump /tmp/shop-dump
          actuate dump /tmp/shop-dump/debug-report.json
          actuate dump /tmp/shop-dump/debug-report.json --html /tmp/shop-dump/timeline.html
          swift run shop-demo --catalog-json | actuate catalog

        Exit status: 0 on success, 1 when an input cannot be read or is not valid, 2 when the command line
        is wrong. Errors are written to standard error.

        """

    static let dump = """
        Usage: actuate dump REPORT.json [--html OUT.html] [--trace OUT.json]

        Reads a debug report (debug-report.json, format 1, as written by DebugReport.write(to:) or
        `shop-demo --dump DIR`).

        Without options, prints it as text: the timeline grouped by session, each action with its start,
        duration and outcome, failures marked with ✗ and FAILED (in red on a terminal), then the action
        stacks and the names of the other sections.

        Options:
          --html OUT.html    Write one self-contained page (no network needed) that draws the timeline as
                             a chart: a lane per session and queue, a bar per action, failures in red.
                             Hover over a bar for a summary; click it for every detail (or open
                             the page at #request-N to show the action with request id N).
          --trace OUT.json   Write the timeline in the Trace Event Format, to open in https://ui.perfetto.dev
                             or chrome://tracing: a process per session, a thread per queue.
          -h, --help         Show this help.

        --html and --trace may be given together; then nothing else is printed but the files written.
        A report written before format 1 (without "formatVersion") or in a newer format is refused with a
        message naming the versions.

        """

    static let export = """
        Usage: actuate export SOURCE... --ndjson OUT [--page-size N]

        Reads the same sources as `actuate stats` (store directories, collected batch files, NDJSON
        files), keeps each event id once, and writes one JSON object per line to OUT (- for standard
        output), with the columns event_id, event_type, event_time (ISO 8601, UTC, milliseconds),
        session_id, anonymous_id, user_id, content_source, content_id, content_name, campaign_id,
        is_control_group, action_name, action_outcome and properties (the other properties, as a string
        of JSON). DuckDB's read_json, ClickHouse's JSONEachRow and warehouse load jobs read it; the table
        and the statistics in SQL are in the repository's Warehouse/ folder.

        OUT is written to a temporary file renamed into place at the end. A source that cannot be read is
        named on standard error and the exit status is 1.

        Options:
          --ndjson OUT     The file to write, or - for standard output.
          --page-size N    Read N events at a time from a store.
          -h, --help       Show this help.

        """

    static let stats = """
        Usage: actuate stats SOURCE... [--json] [--html OUT.html] [--series day|hour] [--page-size N]

        Computes how personalized content performs from the events of every SOURCE: a file event store
        directory (the directory given to FileEventStore(directory:)), a file of batches as a collector
        received them (Actuate's {"batch": [...]} or Segment's, one batch or one per line), or an NDJSON
        file of events (Actuate's, Segment messages, or the rows `actuate export` writes). Events are
        counted once by id (Segment's messageId) across all sources, since delivery repeats them.

        It shows impressions, clicks, CTR, closes, close rate, product and article clicks, errors, CTR of
        visit and purchases credited to product clicks, plus the number of dead letters (events delivery
        gave up on); each campaign's lift against its control group (goal: purchase); and how each action
        performs.

        Every rate carries its 95% Wilson interval. Lift carries a 95% interval (Katz's log method), a
        verdict (better, worse, or not distinguishable yet) and the visitors per group a test needs to
        detect the observed difference (α = 0.05 two-sided, 80% power). Each content and campaign has a
        series per UTC day (or hour) from the events' timestamps.

        Sources are never changed. A store may be open in a running app: its journal files are copied to
        a temporary snapshot that is read N events at a time (1000 by default) and then deleted (it needs
        as much free disk space as the store). Files are read a megabyte at a time, and the ids seen are
        kept as 8-byte fingerprints, so memory grows with contents, sessions and purchases, not events.

        A source that cannot be read, or not wholly (such as a store whose journal name is a symbolic
        link, which is never followed), is named on standard error and the exit status is 1; the figures
        then come from what could be read.

        Options:
          --json           Print the figures as JSON instead of a table (fields: the "Statistics JSON"
                           article of ActuatePersonalization's documentation).
          --html OUT.html  Also write a self-contained page (no network): a chart per content, the
                           funnel, each campaign's lift against zero, and the actions table.
          --series UNIT    day (default) or hour.
          --page-size N    Read N events at a time.
          -h, --help       Show this help.

        """

    static let catalog = """
        Usage: actuate catalog [FILE | -] [--json]

        Renders an app's action catalog as Markdown: every feature with its actions' input, presenter,
        queue, analytics ID, activity eligibility and URL routes, and each conditional feature's
        constraints. The catalog comes from the app's registered feature group at run time, so it is exact:
        build it with ActionCatalog(group:routes:) and print its jsonData(), as `shop-demo --catalog-json`
        does. A debug report with a "catalog" section works too. Actions without a description (theirs is
        "No description") are marked ⚠ and listed under the summary; the JSON has "hasDescription": false.

        FILE is the JSON file to read; without it, or with -, the JSON is read from standard input:
          swift run shop-demo --catalog-json | actuate catalog

        Options:
          --json       Print the catalog as JSON (checked and normalised) instead of Markdown.
          -h, --help   Show this help.

        """

    /// The help of one command, or nil when there is no such command.
    static let validate = """
        Usage: actuate validate RULES.json

        Checks a personalization rules file: its content actions and conditions, its campaigns and its content
        blocks. Every problem is listed with its JSON path from the document's root, for example
        `$.actions[3].contentType: expected a string`, so you can fix them all in one pass.

        Exit status: 0 when the file is valid, 1 when it has problems or cannot be read, 2 when the command
        line is wrong.

        Example:
          actuate validate Examples/Rules/personalization-rules.json

        """

    static func command(_ name: String) -> String? {
        switch name {
        case "dump": dump
        case "stats": stats
        case "export": export
        case "catalog": catalog
        case "validate": validate
        default: nil
        }
    }
}

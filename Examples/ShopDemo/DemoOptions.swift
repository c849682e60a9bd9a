import Foundation

/// The demo's command-line flags.
struct DemoOptions {
    static let help = """
        Usage: shop-demo [--check] [--dump DIR] [--campaign-server URL] [--catalog | --catalog-json] [--help]

        Walks through Actuate on embedded defaults: features and actions with a terminal presenter,
        analytics, an activity, a URL route, an async action, a conditional feature, the durable event
        store, action stacks and the timeline.

          --check         Run on a fresh display history, then check every claim the personalization,
                          campaign and content-block sections make from the event store's statistics
                          and the debug report; exit 1 listing the claims that do not hold.
          --campaign-server URL
                          Take the campaigns from the campaign server at URL (https, or http on a loopback
                          host) instead of the embedded rules file. Try it with the example server:
                          python3 Tests/Support/campaign_server.py --max-seconds 3600 prints its PORT;
                          then --campaign-server http://127.0.0.1:PORT/v1/campaigns
          --dump DIR      Also write the debug report (debug-report.json, debug-report.txt) into DIR,
                          a copy of the event store into DIR/events, and the statistics page
                          (charts with 95% intervals, funnel, campaign lift) into DIR/stats.html.
          --catalog       Print the catalog of the shop's features and actions as Markdown, and exit.
          --catalog-json  Print the same catalog as JSON (the input of `actuate catalog`), and exit.
          --help          Show this help.
        """

    /// How `--catalog` and `--catalog-json` print the action catalog.
    enum CatalogFormat {
        case markdown
        case json
    }

    var showHelp = false
    var check = false
    var dumpDirectory: URL?
    var campaignServer: URL?
    var catalogFormat: CatalogFormat?

    static let exampleServer = "http://127.0.0.1:8080/v1/campaigns"

    init(arguments: [String]) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h":
                showHelp = true
            case "--check":
                check = true
            case "--catalog":
                catalogFormat = .markdown
            case "--catalog-json":
                catalogFormat = .json
            case "--dump":
                guard let path = remaining.popFirst() else {
                    FileHandle.standardError.write(Data("shop-demo: --dump needs a directory\n".utf8))
                    exit(2)
                }
                dumpDirectory = URL(fileURLWithPath: path)
            case "--campaign-server":
                guard let text = remaining.popFirst(), let url = URL(string: text), url.host != nil else {
                    FileHandle.standardError.write(
                        Data("shop-demo: --campaign-server needs a URL such as \(Self.exampleServer)\n".utf8)
                    )
                    exit(2)
                }
                campaignServer = url
            default:
                FileHandle.standardError.write(Data("shop-demo: unknown option \(argument); see --help\n".utf8))
                exit(2)
            }
        }
    }
}

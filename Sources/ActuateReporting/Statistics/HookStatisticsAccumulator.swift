/// Gathers per-action and arrival figures event by event, in memory that grows with the number of actions and
/// distinct broken links, never with the number of events.
struct HookStatisticsAccumulator {
    /// The most distinct broken links tracked; opens of others are counted but not listed.
    static let maxTrackedBrokenLinks = 1_000

    private struct ActionEntry {
        var actionName = ""
        var featurePath = ""
        var figures = ActionFigures()
        var durations = DurationSketch()
    }

    private var actions: [String: ActionEntry] = [:]
    private var arrivals = ArrivalFigures()
    private var brokenLinks: [String: BrokenLink] = [:]

    mutating func add(_ event: ReportEvent) {
        switch event.eventType {
        case .actionEnded: addActionEnded(event)
        case .urlOpened: addURLOpened(event)
        case .activityContinued:
            arrivals.activityContinuations += 1
            arrivals.activityContinuationsByResult[
                event.properties[ReportEventKey.result]?.stringValue ?? "",
                default: 0
            ] += 1
        case .activityPublished: arrivals.activitiesPublished += 1
        default: break
        }
    }

    func finish() -> (actions: [ActionStatistics], arrivals: ArrivalFigures) {
        let statistics = actions.map { analyticsID, entry in
            var figures = entry.figures
            figures.failureRate = ContentFigures.ratio(figures.failed, figures.performed)
            figures.failureRateInterval = RateInterval.wilson(successes: figures.failed, trials: figures.performed)
            figures.medianDurationSeconds = entry.durations.quantile(0.5)
            figures.p95DurationSeconds = entry.durations.quantile(0.95)
            return ActionStatistics(
                analyticsID: analyticsID,
                actionName: entry.actionName,
                featurePath: entry.featurePath,
                figures: figures
            )
        }
        var arrivals = arrivals
        arrivals.brokenLinks = Array(
            brokenLinks.values.sorted { lhs, rhs in
                lhs.opens != rhs.opens ? lhs.opens > rhs.opens : lhs.url < rhs.url
            }
            .prefix(ArrivalFigures.maxBrokenLinks)
        )
        return (statistics.sorted { $0.analyticsID < $1.analyticsID }, arrivals)
    }

    private mutating func addActionEnded(_ event: ReportEvent) {
        guard let analyticsID = event.properties[ReportEventKey.analyticsID]?.stringValue else { return }
        // Mutated in place: a copy taken out of the dictionary would copy its duration buckets on every event.
        Self.update(&actions[analyticsID, default: ActionEntry()], with: event)
    }

    private static func update(_ entry: inout ActionEntry, with event: ReportEvent) {
        if let name = event.properties[ReportEventKey.action]?.stringValue { entry.actionName = name }
        if let path = event.properties[ReportEventKey.feature]?.stringValue { entry.featurePath = path }
        entry.figures.performed += 1
        switch event.properties[ReportEventKey.outcome]?.stringValue {
        case "failure": entry.figures.failed += 1
        case "cancelled": entry.figures.cancelled += 1
        default: break
        }
        if let duration = event.properties[ReportEventKey.durationSeconds]?.numberValue {
            entry.durations.add(duration)
        }
        let source = event.properties[ReportEventKey.source]?.stringValue.flatMap(ArrivalSource.init(rawValue:))
        entry.figures[arrivedFrom: source ?? .application] += 1
    }

    private mutating func addURLOpened(_ event: ReportEvent) {
        let result = event.properties[ReportEventKey.result]?.stringValue ?? ""
        arrivals.urlOpens += 1
        arrivals.urlOpensByResult[result, default: 0] += 1
        guard result == "noMatch" || result == "badParameter" else { return }
        arrivals.brokenLinkOpens += 1
        let url = event.properties[ReportEventKey.url]?.stringValue ?? ""
        if var link = brokenLinks[url] {
            link.opens += 1
            link.result = result
            brokenLinks[url] = link
        } else if brokenLinks.count < Self.maxTrackedBrokenLinks {
            brokenLinks[url] = BrokenLink(url: url, result: result, opens: 1)
        }
    }
}

/// Gathers per-action and arrival figures event by event, in memory that grows with the number of actions and
/// distinct broken links, never with the number of events.
struct HookStatisticsAccumulator {
    /// The most distinct broken links tracked; opens of others are counted but not listed.
    static let maxTrackedBrokenLinks = 1_000

    private struct ActionEntry {
        /// The texts of the analytics id, and of the last action name and feature path (0 for none yet).
        var analyticsID: UInt32
        var actionName: UInt32 = 0
        var featurePath: UInt32 = 0
        var figures = ActionFigures()
        var durations = DurationSketch()
    }

    /// The actions, in order of their first event.
    private var actions: [ActionEntry] = []
    /// Each action's place in `actions` plus one, by the text number of its analytics id; 0 for none.
    private var actionIndexByText: [Int32] = []
    private var arrivals = ArrivalFigures()
    private var brokenLinks: [String: BrokenLink] = [:]

    mutating func add(_ event: StatisticsEvent) {
        switch event.type {
        case StatisticsTexts.actionEnded: addActionEnded(event)
        case StatisticsTexts.urlOpened: addURLOpened(event)
        case StatisticsTexts.activityContinued:
            arrivals.activityContinuations += 1
            arrivals.activityContinuationsByResult[event.result ?? "", default: 0] += 1
        case StatisticsTexts.activityPublished: arrivals.activitiesPublished += 1
        default: break
        }
    }

    /// The figures, the actions' texts read from `texts`, where the events added were numbered.
    func finish(texts: StatisticsTexts) -> (actions: [ActionStatistics], arrivals: ArrivalFigures) {
        let statistics = actions.map { entry in
            var figures = entry.figures
            figures.failureRate = ContentFigures.ratio(figures.failed, figures.performed)
            figures.failureRateInterval = RateInterval.wilson(successes: figures.failed, trials: figures.performed)
            figures.medianDurationSeconds = entry.durations.quantile(0.5)
            figures.p95DurationSeconds = entry.durations.quantile(0.95)
            return ActionStatistics(
                analyticsID: texts.text(entry.analyticsID) ?? "",
                actionName: texts.text(entry.actionName) ?? "",
                featurePath: texts.text(entry.featurePath) ?? "",
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

    private mutating func addActionEnded(_ event: StatisticsEvent) {
        let text = Int(event.analyticsID)
        guard text != 0 else { return }
        if text >= actionIndexByText.count {
            actionIndexByText.append(contentsOf: repeatElement(0, count: text + 1 - actionIndexByText.count))
        }
        if actionIndexByText[text] == 0 {
            actions.append(ActionEntry(analyticsID: event.analyticsID))
            actionIndexByText[text] = Int32(actions.count)
        }
        // Mutated in place: a copy taken out of the array would copy its duration buckets on every event.
        Self.update(&actions[Int(actionIndexByText[text]) - 1], with: event)
    }

    private static func update(_ entry: inout ActionEntry, with event: StatisticsEvent) {
        if event.actionName != 0 { entry.actionName = event.actionName }
        if event.feature != 0 { entry.featurePath = event.feature }
        entry.figures.performed += 1
        switch event.outcome {
        case StatisticsTexts.failure: entry.figures.failed += 1
        case StatisticsTexts.cancelled: entry.figures.cancelled += 1
        default: break
        }
        if let duration = event.durationSeconds {
            entry.durations.add(duration)
        }
        entry.figures[arrivedFrom: event.arrival] += 1
    }

    private mutating func addURLOpened(_ event: StatisticsEvent) {
        let result = event.result ?? ""
        arrivals.urlOpens += 1
        arrivals.urlOpensByResult[result, default: 0] += 1
        guard result == "noMatch" || result == "badParameter" else { return }
        arrivals.brokenLinkOpens += 1
        let url = event.url ?? ""
        if var link = brokenLinks[url] {
            link.opens += 1
            link.result = result
            brokenLinks[url] = link
        } else if brokenLinks.count < Self.maxTrackedBrokenLinks {
            brokenLinks[url] = BrokenLink(url: url, result: result, opens: 1)
        }
    }
}

import Actuate

/// An analytics provider that prints each event it receives, standing in for an analytics SDK.
struct ConsoleAnalytics: AnalyticsProvider {
    func track(_ event: AnalyticsEvent) {
        guard event.phase == .ended else { return }
        let attributes = event.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        print(
            "   📈 analytics: \(event.analyticsID) \(attributes.joined(separator: " ")) → \(event.outcome.map { "\($0)" } ?? "?")"
        )
    }
}

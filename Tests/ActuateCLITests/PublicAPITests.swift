import ActuateTestSupport
import Foundation
import Testing

/// What a user's app or test reads is public: a program that uses it is type-checked against the modules this
/// build made as an app is, without the package's name, so a `package` or internal declaration fails it. (Test
/// targets are built with the package's name and could not tell.)
@Suite("Public API for apps and tests")
struct PublicAPITests {
    static let imports = "import Actuate\nimport ActuatePersonalization\nimport ActuateReporting\nimport Foundation\n"

    @Test("outcome errors, uploader status, dropped bridge errors, statistics totals and consent are public")
    func whatUsersReadIsPublic() async throws {
        let program =
            Self.imports + """
                func read(
                    outcome: ActionPerformOutcome,
                    simplified: ActionOutcome,
                    uploader: EventUploader,
                    placeholder: ContentBlockPlaceholder,
                    tracker: Tracker,
                    statistics: ReportingStatistics,
                    reporter: Reporter
                ) -> [String] {
                    let error: (any Error)? = outcome.error
                    let cancelled: [Bool] = [outcome.isCancellation, simplified.isCancellation]
                    let status: UploaderStatus = uploader.status
                    let counts: [Int] = [
                        status.eventsAcknowledged, status.eventsDeadLettered, status.requestsSent, status.retriesScheduled,
                        placeholder.droppedErrorCount, tracker.droppedErrorCount,
                        statistics.purchasedProducts, statistics.eventCount, statistics.malformedEventCount,
                        reporter.suppressedEventCount,
                    ]
                    let pending: Int? = status.eventsPending
                    let next: Duration? = status.nextAttemptUptime
                    let paused: Date? = status.pausedUntil
                    let problems: [String?] = [status.lastError, status.configurationError, status.lastStoreError]
                    let pausedForConfiguration: Bool = status.isPausedForConfigurationError
                    let rate: Double? = statistics.contributionRate
                    let consent: TrackingConsent = reporter.trackingConsent
                    let logging = MultiplexLogBackend([PrintLogBackend()])
                    let analytics = AnalyticsPlugin(provider: ConsoleAnalyticsProvider())
                    return [
                        "\\(String(describing: error)) \\(cancelled) \\(counts) \\(String(describing: pending))",
                        "\\(String(describing: next)) \\(String(describing: paused)) \\(problems) \\(pausedForConfiguration)",
                        "\\(String(describing: rate)) \\(consent) \\(logging.backends.count) \\(analytics)",
                    ]
                }

                """
        let result = try await SwiftTypeChecker.typeCheck(["PublicReads.swift": program])
        #expect(result.status == 0, "An app cannot read what it needs:\n\(result.diagnostics)")
        #expect(!result.diagnostics.contains("warning:"), "\(result.diagnostics)")
    }

    @Test("the check fails on a `package` declaration, as an app's build would")
    func packageDeclarationsFail() async throws {
        let program = Self.imports + "func read(reporter: Reporter) -> Int { reporter.purgedEventCount }\n"
        let result = try await SwiftTypeChecker.typeCheck(["PackageRead.swift": program])
        #expect(result.status != 0)
        #expect(result.diagnostics.contains("'purgedEventCount' is inaccessible due to 'package' protection level"))
    }

    @Test("the storage of campaigns, the tracker and content blocks is required, never a silent default (issue 47.1)")
    func storageDirectoriesAreRequired() async throws {
        let program =
            Self.imports + """
                func make(
                    reporter: Reporter,
                    campaigns: any CampaignSource,
                    blocks: any ContentBlockSource,
                    decisions: any DecisionSource
                ) {
                    _ = CampaignManager(reporter: reporter, source: campaigns)
                    _ = ContentBlockManager(source: blocks, reporter: reporter)
                    _ = Tracker(source: decisions, reporter: reporter)
                }

                """
        let result = try await SwiftTypeChecker.typeCheck(["NoDirectory.swift": program])
        #expect(result.status != 0)
        let missingDirectory = result.diagnostics.components(separatedBy: "missing argument for parameter 'directory'")
        #expect(missingDirectory.count - 1 >= 3, "each needs its directory:\n\(result.diagnostics)")
    }
}

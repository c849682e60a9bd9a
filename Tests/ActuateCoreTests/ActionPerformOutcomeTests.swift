import Foundation
import Testing

@testable import ActuateCore

@Suite("Action outcomes")
struct ActionPerformOutcomeTests {
    struct CardDeclined: Error, Equatable {}

    @Test("a failure's error and a cancellation are readable on both outcome types")
    func errorAndCancellation() throws {
        let failed = ActionPerformOutcome.failureWithFeatureTermination(error: CardDeclined())
        #expect(try #require(failed.error) as? CardDeclined == CardDeclined())
        #expect(!failed.isCancellation)
        #expect(try #require(failed.simplifiedOutcome.error) as? CardDeclined == CardDeclined())
        #expect(!failed.simplifiedOutcome.isCancellation)

        let cancelled = ActionPerformOutcome.failure(error: ActionCancellationError(bodyStarted: true))
        #expect(cancelled.isCancellation)
        #expect(cancelled.simplifiedOutcome.isCancellation)
        #expect(cancelled.error is ActionCancellationError)

        #expect(ActionPerformOutcome.success.error == nil)
        #expect(!ActionPerformOutcome.success.isCancellation)
        #expect(ActionOutcome.success.error == nil)
        #expect(!ActionOutcome.success.isCancellation)
    }
}

import Actuate
import Synchronization

/// A plugin that records every begin and completion it hears, for tests.
public final class RecordingPlugin: ActionDispatchPlugin {
    /// One thing the plugin heard.
    public enum Event: Sendable, CustomStringConvertible {
        /// An action began.
        case began(ActionRequestSummary)
        /// An action completed.
        case completed(ActionRequestSummary, outcome: String, isSuccess: Bool)

        /// The request the event is about.
        public var request: ActionRequestSummary {
            switch self {
            case .began(let request), .completed(let request, _, _): request
            }
        }

        public var description: String {
            switch self {
            case .began(let request): "began \(request.actionName) #\(request.uniqueID)"
            case .completed(let request, let outcome, _):
                "completed \(request.actionName) #\(request.uniqueID): \(outcome)"
            }
        }
    }

    private let recorded = Mutex<[Event]>([])

    /// Creates an empty recorder.
    public init() {}

    public func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        let summary = request.summary
        recorded.withLock { $0.append(.began(summary)) }
    }

    public func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        let event = Event.completed(
            request.summary,
            outcome: outcomeDescription(outcome),
            isSuccess: outcome.simplifiedOutcome.isSuccess
        )
        recorded.withLock { $0.append(event) }
    }

    /// Everything heard so far, in order.
    public var events: [Event] { recorded.withLock { $0 } }

    /// The names of the actions that began, in order.
    package var beganActionNames: [String] {
        events.compactMap { if case .began(let request) = $0 { request.actionName } else { nil } }
    }

    /// The names of the actions that completed, in order.
    package var completedActionNames: [String] {
        events.compactMap { if case .completed(let request, _, _) = $0 { request.actionName } else { nil } }
    }

    /// Forgets what was recorded.
    public func removeAll() {
        recorded.withLock { $0.removeAll() }
    }

    private func outcomeDescription(_ outcome: ActionPerformOutcome) -> String {
        switch outcome {
        case .success: "success"
        case .successWithFeatureTermination: "successWithFeatureTermination"
        case .failure(let error) where error is ActionCancellationError: "cancelled"
        case .failure(let error): "failure(\(error))"
        case .failureWithFeatureTermination(let error): "failureWithFeatureTermination(\(error))"
        }
    }
}

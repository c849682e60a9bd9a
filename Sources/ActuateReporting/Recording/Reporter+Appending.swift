import Actuate
import Foundation
import Synchronization

/// Building session boundary events and appending events under the reporter's lock.
extension Reporter {
    func validate(type: ReportEventType, properties: [String: JSONValue]) -> ReportingError? {
        if type.rawValue.trimmingWhitespace().isEmpty {
            return .invalidEvent(type: type.rawValue, reason: "the type is empty")
        }
        if type.isReserved {
            return .invalidEvent(type: type.rawValue, reason: "session boundaries are recorded by the reporter")
        }
        if type.contentStatus != nil, (properties[ReportEventKey.actionID]?.stringValue ?? "").isEmpty {
            return .invalidEvent(type: type.rawValue, reason: "a content event needs an \(ReportEventKey.actionID)")
        }
        return nil
    }

    func endSession(reason: SessionEndReason) {
        let ids = identity.current
        let result = state.withLock { state -> StepResult in
            var result = StepResult()
            let ended = state.sessions.endSession(uptime: scheduler.uptime(), date: scheduler.now(), reason: reason)
            if let ended {
                appendEnd(ended, ids: ids, state: &state, result: &result)
                state.keptOpen = nil
                openSessionKeeper?.saveOpenSession(nil)
            }
            return result
        }
        finish(result)
    }

    /// Notes `session` as open at its last event, `date`, in a store that keeps it, so that the next launch can
    /// end it. The note is rewritten when the session or the ids change, and otherwise at most once a second of
    /// the event clock: a session found open at the next launch ends at its last activity to within a second, and
    /// an event costs no file write of its own. Called with the lock held.
    func keepOpen(_ session: ReportingSession, at date: Date, ids: StoredIdentity, state: inout State) {
        guard let keeper = openSessionKeeper else { return }
        let record = OpenSessionRecord(
            sessionID: session.id,
            lastActivityDate: date,
            duration: max(.zero, session.lastActivityUptime - session.startUptime).seconds,
            anonymousID: ids.anonymousID,
            userID: ids.userID
        )
        if let kept = state.keptOpen, kept.sessionID == record.sessionID, kept.anonymousID == record.anonymousID,
            kept.userID == record.userID, date.timeIntervalSince(kept.lastActivityDate) < 1
        {
            return
        }
        state.keptOpen = record
        keeper.saveOpenSession(record)
    }

    /// Records the end of the session an earlier launch left open, at its last activity and with the ids its
    /// events carried, as ``SessionEndReason/foundOpenAtLaunch``; the store then keeps no open session.
    func endSessionFoundOpen() {
        guard let keeper = openSessionKeeper, let open = keeper.loadOpenSession() else { return }
        let result = state.withLock { state -> StepResult in
            var result = StepResult()
            let event = ReportEvent(
                type: ReportEventType.sessionEnd.rawValue,
                timestamp: open.lastActivityDate,
                sessionID: open.sessionID,
                anonymousID: open.anonymousID,
                userID: open.userID,
                properties: [
                    ReportEventKey.duration: .number(open.duration),
                    ReportEventKey.reason: .string(SessionEndReason.foundOpenAtLaunch.rawValue),
                ]
            )
            appendBoundary(event, state: &state, result: &result)
            keeper.saveOpenSession(nil)
            return result
        }
        finish(result)
    }

    /// Appends the session end and start a transition produced. Called with the lock held.
    func appendSessionEvents(
        for transition: SessionTransition,
        ids: StoredIdentity,
        state: inout State,
        result: inout StepResult
    ) {
        if let ended = transition.ended {
            appendEnd(ended, ids: ids, state: &state, result: &result)
        }
        guard let started = transition.started else { return }
        let event = ReportEvent(
            type: ReportEventType.sessionStart.rawValue,
            timestamp: started.startDate,
            sessionID: started.id,
            anonymousID: ids.anonymousID,
            userID: ids.userID
        )
        appendBoundary(event, state: &state, result: &result)
        result.started = started
        result.startHandlers = state.sessionStartHandlers
    }

    /// Appends a session end. Called with the lock held.
    func appendEnd(_ ended: EndedSession, ids: StoredIdentity, state: inout State, result: inout StepResult) {
        let event = ReportEvent(
            type: ReportEventType.sessionEnd.rawValue,
            timestamp: ended.endDate,
            sessionID: ended.session.id,
            anonymousID: ids.anonymousID,
            userID: ids.userID,
            properties: [
                ReportEventKey.duration: .number(ended.duration.seconds),
                ReportEventKey.reason: .string(ended.reason.rawValue),
            ]
        )
        appendBoundary(event, state: &state, result: &result)
    }

    func appendBoundary(_ event: ReportEvent, state: inout State, result: inout StepResult) {
        switch append(event, allowed: state.consent == .granted, state: &state) {
        case .stored: result.appended += 1
        case .suppressed: break
        case .failed(let error): result.errors.append(error)
        }
    }

    /// Appends one event if consent allows it, counting what happened. Called with the lock held.
    func append(_ event: ReportEvent, allowed: Bool, state: inout State) -> RecordOutcome {
        guard allowed else {
            state.suppressed += 1
            return .suppressed
        }
        do {
            try store.append(event)
            return .stored(event)
        } catch {
            let problem = ReportingError.appendFailed(type: event.type, reason: String(describing: error))
            state.failedAppends += 1
            state.lastError = problem
            return .failed(problem)
        }
    }

    /// Tells delivery, reports errors and runs session handlers, outside the lock.
    func finish(_ result: StepResult) {
        if result.appended > 0 {
            delivery?.eventsAppended(result.appended)
        }
        report(result.errors, alreadyStored: true)
        if let started = result.started {
            for handler in result.startHandlers { handler(started) }
        }
    }

    /// Keeps the last error and calls the error handler, outside the lock.
    package func report(_ errors: [ReportingError], alreadyStored: Bool = false) {
        guard let last = errors.last else { return }
        if !alreadyStored {
            state.withLock { $0.lastError = last }
        }
        for error in errors { onError?(error) }
    }
}

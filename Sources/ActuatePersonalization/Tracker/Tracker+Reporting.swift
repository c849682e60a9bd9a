import Actuate
import ActuateReporting

/// Content reports: what happened to shown content, performed as ``PersonalizationFeature`` actions.
extension Tracker {
    /// Reports a click delivered by the HTML bridge (or built by the app), for the action it names.
    ///
    /// The action's name is taken from the cached result when it holds the action.
    ///
    /// Which to use: content shown with ``ContentAction/render(on:bridge:clickedCallback:)`` is reported by the
    /// bridge itself, before `clickedCallback` runs, so call this method only for content your app draws and
    /// whose clicks it sees itself. A click reported twice in one page view (Personyze's sample reports it again
    /// from the callback) is recorded once and this method answers ``ContentReportResult/duplicate``.
    /// - Parameter clicked: The click.
    /// - Returns: Whether the report was sent, dropped as a duplicate (the same status, and for products and
    ///   articles the same id, already reported for the action in this page view), or invalid (a close count
    ///   that is not a whole number, an empty product or article id).
    @discardableResult
    public func reportActionClicked(_ clicked: ActionClicked) -> ContentReportResult {
        let name = core.withLock { $0.tracker.cached?.action(id: clicked.actionID)?.name }
        return report(clicked, name: name)
    }

    /// Reports a click for an action whose name the caller knows.
    func report(_ clicked: ActionClicked, name: String?) -> ContentReportResult {
        let event: ContentEvent
        do {
            switch clicked.status {
            case .target: event = .target(href: clicked.href.isEmpty ? nil : clicked.href)
            case .close: event = try ContentEvent(status: .close, argument: clicked.arg)
            case .product: event = try ContentEvent(status: .product, argument: clicked.arg)
            case .article: event = try ContentEvent(status: .article, argument: clicked.arg)
            }
        } catch {
            return .invalid(reason: error.description)
        }
        return report(event, actionID: clicked.actionID, name: name)
    }

    /// Waits until every report handed to the dispatcher so far has completed, so its event is in the store.
    public func waitForReports() async {
        await inFlight.wait()
    }

    /// Reports `event` for an action, unless it is a duplicate in this page view.
    func report(_ event: ContentEvent, actionID: Int, name: String?) -> ContentReportResult {
        if let problem = Self.problem(with: event) { return .invalid(reason: problem) }
        // A close counts sessions from the one it happens in, so that session is settled first.
        continueSession()
        let admitted = core.withLock { core -> Bool in
            guard
                core.tracker.admit(
                    actionID: actionID,
                    status: event.status.rawValue,
                    argument: Self.argument(of: event)
                )
            else { return false }
            if case .close(let sessions) = event {
                core.tracker.close(actionID: actionID, sessions: sessions, sessionID: core.tracker.session?.id)
            }
            return true
        }
        guard admitted else { return .duplicate }
        if case .close = event { persistState() }
        let input = ContentReportInput(content: .contentAction(id: actionID, name: name), event: event)
        switch event.status {
        case .executed: perform(PersonalizationFeature.showContent, input: input, userInitiated: false)
        case .target: perform(PersonalizationFeature.clickContent, input: input, userInitiated: true)
        case .close: perform(PersonalizationFeature.closeContent, input: input, userInitiated: true)
        case .product: perform(PersonalizationFeature.clickContentProduct, input: input, userInitiated: true)
        case .article: perform(PersonalizationFeature.clickContentArticle, input: input, userInitiated: true)
        case .error: perform(PersonalizationFeature.reportContentError, input: input, userInitiated: false)
        }
        return .sent
    }

    /// Reports each hidden action as `dont-show`, once per page view.
    func reportSuppressed(_ hidden: [ContentAction]) {
        for action in hidden {
            let remaining = core.withLock { core -> Int? in
                guard core.tracker.admit(actionID: action.id, status: "dont-show") else { return nil }
                return core.tracker.saved.dontShow.remainingSessions(action.id) ?? 0
            }
            guard let remaining else { continue }
            let input = SuppressedContentInput(
                content: .contentAction(id: action.id, name: action.name),
                remainingSessions: remaining
            )
            perform(PersonalizationFeature.suppressContent, input: input, userInitiated: false)
        }
    }

    /// Performs a report action in the tracker's session, counting it until it completes.
    func perform<A: Action>(
        _ binding: StaticActionBinding<PersonalizationFeature, A>,
        input: A.InputType,
        userInitiated: Bool
    ) where A.PresenterType == NoPresenter {
        let inFlight = self.inFlight
        inFlight.begin()
        actionSession.perform(binding, input: input, presenter: (), userInitiated: userInitiated) { _ in
            inFlight.end()
        }
    }

    /// What tells two reports of one status apart within a page view: the product or article clicked.
    private static func argument(of event: ContentEvent) -> String {
        switch event {
        case .product(let productID): productID
        case .article(let articleID): articleID
        default: ""
        }
    }

    private static func problem(with event: ContentEvent) -> String? {
        switch event {
        case .product(let productID) where productID.allSatisfy(\.isWhitespace): "the product id is empty"
        case .article(let articleID) where articleID.allSatisfy(\.isWhitespace): "the article id is empty"
        default: nil
        }
    }
}

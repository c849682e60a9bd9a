import ActuateReporting

/// What the app did with a campaign it received: impressions, clickthroughs and dismissals.
extension CampaignContext {
    /// Tracks that a campaign was shown, or, for a control-group campaign, that it would have been.
    ///
    /// A shown campaign is recorded as an `executed` content event of source `campaign`. A control-group
    /// campaign is recorded as a `CampaignEventType.controlImpression` tagged `controlGroup = true`, so that
    /// lift can compare the two groups (see ``CampaignStatistics``) while impressions and CTR count only what
    /// users saw. Call it after the same eligibility logic in both cases.
    /// - Parameter campaign: The campaign.
    public func trackImpression(_ campaign: Campaign) {
        if campaign.isControlGroup {
            engine.record(CampaignEventType.controlImpression, campaign.eventProperties, contextName: name)
        } else {
            record(.executed, for: campaign)
        }
    }

    /// Tracks that the user dismissed a shown campaign, as a `close` content event.
    ///
    /// A control-group campaign is never shown, so dismissing one is recorded as a
    /// `CampaignEventType.trackingError`.
    /// - Parameter campaign: The campaign.
    public func trackDismissal(_ campaign: Campaign) {
        engine.userActivity()
        guard !campaign.isControlGroup else {
            return refuseControlGroup(campaign, call: "trackDismissal", what: "dismissed")
        }
        record(.close(dontShowSessions: 0), for: campaign)
    }

    /// Tracks that the user clicked a shown campaign's content, as a `target` content event.
    ///
    /// A control-group campaign is never shown, so a clickthrough on one is recorded as a
    /// `CampaignEventType.trackingError`.
    /// - Parameter campaign: The campaign.
    public func trackClickthrough(_ campaign: Campaign) {
        engine.userActivity()
        guard !campaign.isControlGroup else {
            return refuseControlGroup(campaign, call: "trackClickthrough", what: "clicked")
        }
        record(.target(href: nil), for: campaign)
    }

    /// Tracks a click on the app's own UI for a campaign notification that arrived while the app was in the
    /// foreground, as a `target` content event with `via = notification`.
    ///
    /// The payload is the notification's user info as JSON; `CampaignNotification` says which keys it reads.
    /// On Apple platforms, `trackClickthrough(response:)` takes a `UNNotificationResponse` directly.
    /// - Parameters:
    ///   - notification: The notification's payload.
    ///   - actionIdentifier: The notification action the user chose, if any.
    /// - Throws: An error describing the problem when the payload has no campaign or message id, or one that is
    ///   empty or not a string or whole number; nothing is recorded then.
    public func trackClickthrough(
        notification: [String: JSONValue],
        actionIdentifier: String?
    ) throws {
        let parsed = try CampaignNotification(payload: notification)
        engine.userActivity()
        var properties = EventProperties.content(.target(href: nil), for: parsed.contentReference)
        properties[CampaignEventKey.messageID] = .string(parsed.messageID)
        properties[CampaignEventKey.controlGroup] = .bool(false)
        properties[CampaignEventKey.via] = "notification"
        if let experienceID = parsed.experienceID { properties[CampaignEventKey.experienceID] = .string(experienceID) }
        if let target = parsed.target { properties[CampaignEventKey.target] = .string(target) }
        if let actionIdentifier { properties[CampaignEventKey.actionIdentifier] = .string(actionIdentifier) }
        engine.record(.target, properties, contextName: name)
    }

    private func record(_ event: ContentEvent, for campaign: Campaign) {
        let properties = campaign.eventProperties.merging(event.properties) { _, argument in argument }
        engine.record(ReportEventType(event.status), properties, contextName: name)
    }

    private func refuseControlGroup(_ campaign: Campaign, call: String, what: String) {
        engine.recordTrackingError(
            call: call,
            message: "\(campaign) is in the control group and was not shown, so it cannot be \(what)",
            contextName: name
        )
    }
}

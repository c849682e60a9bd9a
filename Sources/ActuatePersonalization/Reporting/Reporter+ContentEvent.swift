import ActuateReporting

extension EventProperties {
    /// The properties of a content event: the content's identity plus the status's argument.
    /// - Parameters:
    ///   - event: The content event.
    ///   - content: The content it is about.
    /// - Returns: The merged properties.
    package static func content(_ event: ContentEvent, for content: ContentReference) -> [String: JSONValue] {
        self.content(content).merging(event.properties) { _, argument in argument }
    }
}

extension Reporter {
    /// Records a content event: what happened to which piece of content.
    /// - Parameters:
    ///   - event: The status and its argument.
    ///   - content: The content it happened to.
    ///   - properties: Extra properties; the content's identity and the status's argument take precedence.
    ///   - forceTracking: Stores the event even while consent is denied, tagged `tracking_forced = true`.
    /// - Returns: Whether the event was stored, suppressed by consent, or failed.
    @discardableResult
    public func record(
        _ event: ContentEvent,
        for content: ContentReference,
        properties: [String: JSONValue] = [:],
        forceTracking: Bool = false
    ) -> RecordOutcome {
        let merged = properties.merging(EventProperties.content(event, for: content)) { _, built in built }
        return record(type: ReportEventType(event.status), properties: merged, forceTracking: forceTracking)
    }

    /// Records a content status with its string argument, as the HTML bridge and `ActionClicked` deliver it.
    /// - Parameters:
    ///   - status: The status.
    ///   - content: The content it happened to.
    ///   - argument: The status's argument, read as `ContentEvent.init(status:argument:)` describes.
    ///   - properties: Extra properties.
    ///   - forceTracking: Stores the event even while consent is denied, tagged `tracking_forced = true`.
    /// - Returns: Whether the event was stored, suppressed by consent, or failed (also for a bad argument).
    @discardableResult
    package func record(
        _ status: ContentStatus,
        for content: ContentReference,
        argument: String,
        properties: [String: JSONValue] = [:],
        forceTracking: Bool = false
    ) -> RecordOutcome {
        do {
            let event = try ContentEvent(status: status, argument: argument)
            return record(event, for: content, properties: properties, forceTracking: forceTracking)
        } catch {
            report([error])
            return .failed(error)
        }
    }
}

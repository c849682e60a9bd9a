import Foundation

/// The encoding of debug report format 1, with dates written by the entry itself (ISO 8601, UTC, six
/// fractional digits), so that any `JSONEncoder` writes the format and any `JSONDecoder` reads it.
extension TimelineEntry: Codable {
    private enum CodingKeys: String, CodingKey {
        case requestID
        case sessionName
        case featureName
        case featurePath
        case actionName
        case queueLabel
        case inputDescription
        case userInitiated
        case source
        case startDate
        case startOffsetNanoseconds
        case durationNanoseconds
        case outcome
    }

    /// Decodes an entry of format 1.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when a field is missing or malformed, such as a date not in the format.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let dateText = try container.decode(String.self, forKey: .startDate)
        guard let startDate = ReportDate.date(from: dateText) else {
            throw DecodingError.dataCorruptedError(
                forKey: .startDate,
                in: container,
                debugDescription: "'\(dateText)' is not an ISO 8601 date such as 2026-11-23T10:15:01.000123Z."
            )
        }
        self.init(
            requestID: try container.decode(UInt64.self, forKey: .requestID),
            sessionName: try container.decode(String.self, forKey: .sessionName),
            featureName: try container.decode(String.self, forKey: .featureName),
            featurePath: try container.decode(String.self, forKey: .featurePath),
            actionName: try container.decode(String.self, forKey: .actionName),
            queueLabel: try container.decode(String.self, forKey: .queueLabel),
            inputDescription: try container.decode(String.self, forKey: .inputDescription),
            userInitiated: try container.decode(Bool.self, forKey: .userInitiated),
            source: try container.decode(ActionSource.self, forKey: .source),
            startDate: startDate,
            startOffsetNanoseconds: try container.decode(UInt64.self, forKey: .startOffsetNanoseconds),
            durationNanoseconds: try container.decodeIfPresent(UInt64.self, forKey: .durationNanoseconds),
            outcome: try container.decodeIfPresent(TimelineOutcome.self, forKey: .outcome)
        )
    }

    /// Encodes the entry in format 1; `durationNanoseconds` and `outcome` are absent while it runs.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: An encoding error from `encoder`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(requestID, forKey: .requestID)
        try container.encode(sessionName, forKey: .sessionName)
        try container.encode(featureName, forKey: .featureName)
        try container.encode(featurePath, forKey: .featurePath)
        try container.encode(actionName, forKey: .actionName)
        try container.encode(queueLabel, forKey: .queueLabel)
        try container.encode(inputDescription, forKey: .inputDescription)
        try container.encode(userInitiated, forKey: .userInitiated)
        try container.encode(source, forKey: .source)
        try container.encode(ReportDate.string(from: startDate), forKey: .startDate)
        try container.encode(startOffsetNanoseconds, forKey: .startOffsetNanoseconds)
        try container.encodeIfPresent(durationNanoseconds, forKey: .durationNanoseconds)
        try container.encodeIfPresent(outcome, forKey: .outcome)
    }
}

/// The `actionStacks` section of a debug report, read leniently: the fields the text needs, and optional fields
/// that are skipped rather than fatal when their shape is not the expected one.
struct ReportActionStacks: Decodable {
    var open: [Stack]
    var closed: [Stack]

    struct Stack: Decodable {
        var id: UInt64
        var parentID: UInt64?
        var sessionName: String
        var featureName: String
        var openedAt: String?
        var closedAt: String?
        var closeReason: String?
        var entries: [Entry]
        var evictedEntryCount: Int?

        private enum CodingKeys: String, CodingKey {
            case id, parentID, sessionName, featureName, openedAt, closedAt, closeReason, entries, evictedEntryCount
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(UInt64.self, forKey: .id)
            sessionName = try container.decode(String.self, forKey: .sessionName)
            featureName = try container.decode(String.self, forKey: .featureName)
            entries = try container.decode([Entry].self, forKey: .entries)
            parentID = try? container.decodeIfPresent(UInt64.self, forKey: .parentID)
            openedAt = try? container.decodeIfPresent(String.self, forKey: .openedAt)
            closedAt = try? container.decodeIfPresent(String.self, forKey: .closedAt)
            closeReason = try? container.decodeIfPresent(String.self, forKey: .closeReason)
            evictedEntryCount = try? container.decodeIfPresent(Int.self, forKey: .evictedEntryCount)
        }
    }

    struct Entry: Decodable {
        var requestID: UInt64
        var actionName: String
        var inputDescription: String?
        var outcome: ReportOutcome?

        private enum CodingKeys: String, CodingKey {
            case requestID, actionName, inputDescription, outcome
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            requestID = try container.decode(UInt64.self, forKey: .requestID)
            actionName = try container.decode(String.self, forKey: .actionName)
            inputDescription = try? container.decodeIfPresent(String.self, forKey: .inputDescription)
            outcome = try? container.decodeIfPresent(ReportOutcome.self, forKey: .outcome)
        }
    }
}

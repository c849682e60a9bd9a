/// The `actionStacks` section of a debug report, read leniently: fields the text needs, nothing more.
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
    }

    struct Entry: Decodable {
        var requestID: UInt64
        var actionName: String
        var inputDescription: String?
        var outcome: ReportOutcome?
    }
}

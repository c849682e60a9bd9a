import Foundation

/// When each content block was last shown and last interacted with: the facts the frequency rules read.
///
/// A value type without I/O, so the rules can be tested alone; ``ContentBlockHistoryStore`` keeps it in a
/// file between launches.
struct ContentBlockHistory: Sendable, Hashable, Codable {
    /// What is known about one block.
    struct Record: Sendable, Hashable, Codable {
        /// When the block was last shown.
        var lastShown: Date?
        /// The visit (reporting session id) in which it was last shown.
        var lastShownVisit: String?
        /// When the visitor last clicked or closed it.
        var lastInteraction: Date?
        /// Whether an `onlyOnce` block was ever shown. Kept past the retention period: Exponea's `onlyOnce` means
        /// once for the life of the installation, not once a month.
        var shownOnce = false

        var isEmpty: Bool { lastShown == nil && lastInteraction == nil && !shownOnce }

        init(
            lastShown: Date? = nil,
            lastShownVisit: String? = nil,
            lastInteraction: Date? = nil,
            shownOnce: Bool = false
        ) {
            self.lastShown = lastShown
            self.lastShownVisit = lastShownVisit
            self.lastInteraction = lastInteraction
            self.shownOnce = shownOnce
        }

        /// Reads a record; files written before `shownOnce` existed lack the key, and their shows are then
        /// known only from `lastShown`.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            lastShown = try container.decodeIfPresent(Date.self, forKey: .lastShown)
            lastShownVisit = try container.decodeIfPresent(String.self, forKey: .lastShownVisit)
            lastInteraction = try container.decodeIfPresent(Date.self, forKey: .lastInteraction)
            shownOnce = try container.decodeIfPresent(Bool.self, forKey: .shownOnce) ?? false
        }
    }

    /// The records by block id.
    var records: [String: Record] = [:]

    /// Whether `block` may be shown now, by its frequency rule.
    /// - Parameters:
    ///   - block: The block.
    ///   - visit: The current visit's id, or nil when no visit is running (so none of its shows happened).
    func allows(_ block: ContentBlock, visit: String?) -> Bool {
        let record = records[block.id]
        switch block.frequency {
        case .always:
            return true
        case .onlyOnce:
            return record?.lastShown == nil && record?.shownOnce != true
        case .oncePerVisit:
            guard let visit, let shownVisit = record?.lastShownVisit else { return true }
            return shownVisit != visit
        case .untilVisitorInteracts:
            return record?.lastInteraction == nil
        }
    }

    /// Notes that `block` was shown at `date` during `visit`.
    mutating func recordShown(_ block: ContentBlock, at date: Date, visit: String) {
        records[block.id, default: Record()].lastShown = date
        records[block.id, default: Record()].lastShownVisit = visit
        if block.frequency == .onlyOnce { records[block.id, default: Record()].shownOnce = true }
    }

    /// Notes that the visitor clicked or closed `blockId` at `date`.
    mutating func recordInteraction(_ blockID: String, at date: Date) {
        records[blockID, default: Record()].lastInteraction = date
    }

    /// Forgets shows and interactions older than `retention` before `now`; that an `onlyOnce` block was shown is
    /// never forgotten.
    /// - Returns: Whether anything was forgotten.
    @discardableResult
    mutating func prune(now: Date, retention: Duration) -> Bool {
        let cutoff = now.addingTimeInterval(-retention.seconds)
        var changed = false
        for (id, var record) in records {
            if let shown = record.lastShown, shown < cutoff {
                record.lastShown = nil
                record.lastShownVisit = nil
            }
            if let interaction = record.lastInteraction, interaction < cutoff {
                record.lastInteraction = nil
            }
            guard record != records[id] else { continue }
            changed = true
            records[id] = record.isEmpty ? nil : record
        }
        return changed
    }
}

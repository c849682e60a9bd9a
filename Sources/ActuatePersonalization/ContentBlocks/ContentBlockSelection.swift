/// Which blocks a placeholder shows, and in what order: pure functions over the blocks, the history and the
/// current visit.
enum ContentBlockSelection {
    /// Whether `lhs` comes before `rhs`: higher priority first, then name ascending, then id ascending.
    static func precedes(_ lhs: ContentBlock, _ rhs: ContentBlock) -> Bool {
        if lhs.priority != rhs.priority { return lhs.priority > rhs.priority }
        if lhs.name != rhs.name { return lhs.name < rhs.name }
        return lhs.id < rhs.id
    }

    /// The blocks `placeholderId` may show now, in display order.
    /// - Parameters:
    ///   - blocks: The candidate blocks.
    ///   - placeholderID: The placeholder.
    ///   - history: Shows and interactions so far.
    ///   - visit: The current visit, if one is running.
    ///   - excluding: Block ids left out, such as blocks the user closed in this placeholder.
    ///   - maxCount: The most blocks to return, or nil for all.
    static func eligible(
        _ blocks: [ContentBlock],
        placeholderID: String,
        history: ContentBlockHistory,
        visit: String?,
        excluding: Set<String> = [],
        maxCount: Int? = nil
    ) -> [ContentBlock] {
        let ordered = blocks.filter {
            $0.placeholders.contains(placeholderID) && !excluding.contains($0.id) && history.allows($0, visit: visit)
        }.sorted(by: precedes)
        guard let maxCount else { return ordered }
        return Array(ordered.prefix(max(0, maxCount)))
    }

    /// The block a carousel shows after `current`: the next eligible block in display order, wrapping around,
    /// or nil when no other block is eligible.
    static func next(after current: ContentBlock?, in eligible: [ContentBlock]) -> ContentBlock? {
        guard let current else { return eligible.first }
        let others = eligible.filter { $0.id != current.id }
        guard !others.isEmpty else { return nil }
        return others.first { precedes(current, $0) } ?? others.first
    }
}

import Foundation

/// The texts that statistics group events by (event types, content sources, content and campaign ids, content
/// names, analytics ids, outcomes), each kept once and numbered in order of first appearance, so that a
/// ``StatisticsEvent`` carries small numbers instead of strings and the accumulators index arrays by them rather
/// than hash strings.
///
/// Numbers start at 1; 0 stands for "no such text" (the property is missing, or not a string). The texts every
/// statistics pass compares against have fixed numbers (``executed`` to ``intent``), so accumulators test them
/// without a lookup. Memory grows with the distinct texts, never with the events.
package struct StatisticsTexts: Sendable {
    /// The number of the first content status, `executed`; the six statuses follow in ``ContentStatus``'s order.
    package static let executed: UInt32 = 1
    /// `purchase`.
    package static let purchase: UInt32 = 7
    /// `action_ended`.
    package static let actionEnded: UInt32 = 8
    /// `url_opened`.
    package static let urlOpened: UInt32 = 9
    /// `activity_continued`.
    package static let activityContinued: UInt32 = 10
    /// `activity_published`.
    package static let activityPublished: UInt32 = 11
    /// The empty text.
    package static let empty: UInt32 = 12
    /// `action`, the content source of events without one (``ContentSource/fallback``).
    package static let fallbackSource: UInt32 = 13
    /// `appAction`, the content source of the app's own failed actions.
    package static let appAction: UInt32 = 14
    /// `failure`, an outcome.
    package static let failure: UInt32 = 15
    /// `cancelled`, an outcome.
    package static let cancelled: UInt32 = 16
    /// The number of the first arrival source, `application`; the four sources follow in ``ArrivalSource``'s order.
    package static let application: UInt32 = 17
    /// The number of the last fixed text, `intent`.
    package static let intent: UInt32 = 20

    private static let fixedTexts: [String] =
        ContentStatus.allCases.map(\.rawValue) + [
            ReportEventType.purchase.rawValue, ReportEventType.actionEnded.rawValue,
            ReportEventType.urlOpened.rawValue, ReportEventType.activityContinued.rawValue,
            ReportEventType.activityPublished.rawValue, "", ContentSource.fallback.rawValue,
            ContentSource.appAction.rawValue, "failure", "cancelled",
        ] + ArrivalSource.allCases.map(\.rawValue)

    /// The texts by number; index 0 is unused.
    private var texts: [String] = [""]
    /// Each text's UTF-8 bytes, one after another: text `n` spans `ends[n - 1]..<ends[n]`.
    private var bytes: [UInt8] = []
    private var ends: [Int] = [0]
    /// Each text's hash (``IDHash``), by number.
    private var hashes: [UInt64] = [0]
    /// Open addressing over the hashes: a text's number, 0 for an empty slot.
    private var slots = [UInt32](repeating: 0, count: 64)
    /// Short ASCII texts seen lately, by their bytes as two words and their length: a text of at most 16 bytes is
    /// wholly told by them, so a hit needs neither a hash of its bytes nor a comparison of them.
    private var shortTexts = [ShortText](repeating: ShortText(), count: Self.shortTextCount)

    private struct ShortText {
        var first: UInt64 = 0
        var second: UInt64 = 0
        var count = -1
        var number: UInt32 = 0
    }

    private static let shortTextCount = 256

    /// Creates the texts with the fixed ones numbered.
    package init() {
        for text in Self.fixedTexts { _ = number(of: text) }
        assert(texts.count == Int(Self.intent) + 1 && texts[Int(Self.intent)] == ArrivalSource.intent.rawValue)
    }

    /// The number of texts, the unused 0 included: every number is below it.
    package var count: Int { texts.count }

    /// The text of `number`, or nil for 0.
    /// - Parameter number: A number this value gave out, or 0.
    /// - Returns: The text.
    package func text(_ number: UInt32) -> String? {
        number == 0 ? nil : texts[Int(number)]
    }

    /// The number of `text`, numbering it when it is new.
    /// - Parameter text: The text.
    /// - Returns: Its number, never 0.
    package mutating func number(of text: String) -> UInt32 {
        var utf8 = text
        return utf8.withUTF8 { number(utf8: $0, hash: IDHash.of(utf8: $0), text: text) }
    }

    /// The number of the text whose UTF-8 bytes (valid UTF-8) are `utf8` and whose ``IDHash`` is `hash`, numbering
    /// it when it is new; `text` is the same text as a string, when the caller has it.
    mutating func number(utf8: UnsafeBufferPointer<UInt8>, hash: UInt64, text: String? = nil) -> UInt32 {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let number = slots[slot]
            if number == 0 { break }
            if hashes[Int(number)] == hash, matches(Int(number), utf8) { return number }
            slot = (slot + 1) & mask
        }
        let number = UInt32(texts.count)
        texts.append(text ?? String(decoding: utf8, as: UTF8.self))
        bytes.append(contentsOf: utf8)
        ends.append(bytes.count)
        hashes.append(hash)
        slots[slot] = number
        if texts.count * 2 > slots.count { grow() }
        return number
    }

    /// The number of the ASCII text of `count` bytes (at most 16) whose bytes are `first` then `second` (little-endian
    /// words, zero past the end), when it was seen lately; else 0.
    func recentNumber(first: UInt64, second: UInt64, count: Int) -> UInt32 {
        let entry = shortTexts[Self.shortSlot(first, second, count)]
        return entry.first == first && entry.second == second && entry.count == count ? entry.number : 0
    }

    /// Remembers `number` as that of the ASCII text of `count` bytes (at most 16) given as ``recentNumber``'s words.
    mutating func rememberRecent(_ number: UInt32, first: UInt64, second: UInt64, count: Int) {
        shortTexts[Self.shortSlot(first, second, count)] = ShortText(
            first: first,
            second: second,
            count: count,
            number: number
        )
    }

    private static func shortSlot(_ first: UInt64, _ second: UInt64, _ count: Int) -> Int {
        let mixed =
            (first &+ UInt64(truncatingIfNeeded: count)) &* 0x9E37_79B9_7F4A_7C15 ^ second &* 0xC2B2_AE3D_27D4_EB4F
        return Int(truncatingIfNeeded: mixed >> 56) & (shortTextCount - 1)
    }

    private func matches(_ number: Int, _ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = ends[number - 1]
        guard ends[number] - start == utf8.count else { return false }
        return bytes.withUnsafeBufferPointer { stored in
            utf8.isEmpty || memcmp(stored.baseAddress! + start, utf8.baseAddress!, utf8.count) == 0
        }
    }

    private mutating func grow() {
        slots = [UInt32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for number in 1..<texts.count {
            var slot = Int(truncatingIfNeeded: hashes[number]) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt32(number)
        }
    }
}

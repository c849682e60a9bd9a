/// The properties the statistics read from an event, told apart by a member name's bytes as two little-endian words
/// (zero past its end, as ``JSONBytesParser/consumeShortASCIIString()`` gives them) and its length: one or two
/// comparisons of words, rather than a scan for the name's end and a comparison of bytes.
enum StatisticsPropertyKey: CaseIterable {
    case contentSource
    case actionID
    case actionName
    case productID
    case productIDs
    case analyticsID
    case action
    case feature
    case outcome
    case source
    case durationSeconds
    case result
    case url
    case name

    /// The member name.
    var text: String {
        switch self {
        case .contentSource: ReportEventKey.contentSource
        case .actionID: ReportEventKey.actionID
        case .actionName: ReportEventKey.actionName
        case .productID: ReportEventKey.productID
        case .productIDs: ReportEventKey.productIDs
        case .analyticsID: ReportEventKey.analyticsID
        case .action: ReportEventKey.action
        case .feature: ReportEventKey.feature
        case .outcome: ReportEventKey.outcome
        case .source: ReportEventKey.source
        case .durationSeconds: ReportEventKey.durationSeconds
        case .result: ReportEventKey.result
        case .url: ReportEventKey.url
        case .name: StatisticsEvent.nameKey
        }
    }

    /// The key whose name is the `count` bytes given as two words, or nil when it is none of them. The constants are
    /// the names' bytes, first byte lowest (a test checks each against ``text``).
    init?(first: UInt64, second: UInt64, count: Int) {
        switch count {
        case 3 where first == 0x0000_0000_006C_7275: self = .url
        case 4 where first == 0x0000_0000_656D_616E: self = .name
        case 6 where first == 0x0000_6E6F_6974_6361: self = .action
        case 6 where first == 0x0000_6563_7275_6F73: self = .source
        case 6 where first == 0x0000_746C_7573_6572: self = .result
        case 7 where first == 0x0065_7275_7461_6566: self = .feature
        case 7 where first == 0x0065_6D6F_6374_756F: self = .outcome
        case 8 where first == 0x6449_6E6F_6974_6361: self = .actionID
        case 9 where first == 0x4974_6375_646F_7270 && second == 0x64: self = .productID
        case 10 where first == 0x614E_6E6F_6974_6361 && second == 0x656D: self = .actionName
        case 10 where first == 0x4974_6375_646F_7270 && second == 0x7364: self = .productIDs
        case 11 where first == 0x6369_7479_6C61_6E61 && second == 0x0064_4973: self = .analyticsID
        case 13 where first == 0x5374_6E65_746E_6F63 && second == 0x0065_6372_756F: self = .contentSource
        case 15 where first == 0x6E6F_6974_6172_7564 && second == 0x0073_646E_6F63_6553: self = .durationSeconds
        default: return nil
        }
    }

    /// The key whose name is `utf8`, or nil when it is none of them.
    init?(utf8: UnsafeBufferPointer<UInt8>) {
        guard utf8.count < 16 else { return nil }
        var first: UInt64 = 0
        var second: UInt64 = 0
        for (index, byte) in utf8.enumerated() {
            if index < 8 {
                first |= UInt64(byte) << UInt64(8 * index)
            } else {
                second |= UInt64(byte) << UInt64(8 * (index - 8))
            }
        }
        self.init(first: first, second: second, count: utf8.count)
    }
}

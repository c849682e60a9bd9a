/// Puts visitors in or out of a condition's control group, the same way on every launch and device.
///
/// The bucket is a 64-bit FNV-1a hash of `visitorId:conditionId`, modulo 10,000, so a percentage has two
/// decimals of resolution. Swift's `hashValue` is never used: it changes every launch.
enum ControlGroup {
    /// Whether `visitorId` is in the control group of `conditionId` at `percent` (0 to 100).
    static func contains(visitorId: String, conditionId: Int, percent: Double) -> Bool {
        guard percent > 0 else { return false }
        guard percent < 100 else { return true }
        return Double(bucket(visitorId: visitorId, conditionId: conditionId)) < percent * 100
    }

    /// The visitor's bucket for the condition, 0 to 9,999.
    static func bucket(visitorId: String, conditionId: Int) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in visitorId.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        hash = (hash ^ UInt64(UInt8(ascii: ":"))) &* 0x0000_0100_0000_01B3
        for byte in String(conditionId).utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash % 10_000
    }
}

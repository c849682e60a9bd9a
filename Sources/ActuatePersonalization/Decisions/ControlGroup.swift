/// Puts visitors in or out of a condition's or a campaign's control group, the same way on every launch and device.
///
/// The bucket is a 64-bit FNV-1a hash of `visitorId:key`, where the key is the condition's id (`7`) or
/// `campaign:` and the campaign's id (`campaign:summer`), so that a campaign and a condition never share a key, passed through MurmurHash3's 64-bit finaliser
/// (`fmix64`), modulo 10,000, so a percentage has two decimals of resolution. The finaliser spreads every input
/// bit over the whole hash: without it, FNV-1a of two ids that differ only in their last character differ by a
/// fixed multiple of the prime, so neighbouring conditions (1 and 2, 100 and 101) put the same visitors at fixed
/// offsets and their control groups were not independent. Swift's `hashValue` is never used: it changes every
/// launch. Only integer arithmetic on UTF-8 bytes is involved, so the bucket is the same on every platform.
enum ControlGroup {
    /// Whether `visitorId` is in the control group of `conditionId` at `percent` (0 to 100).
    static func contains(visitorID: String, conditionID: Int, percent: Double) -> Bool {
        contains(visitorID: visitorID, key: String(conditionID), percent: percent)
    }

    /// Whether `visitorId` is in the control group of the campaign `campaignId` at `percent` (0 to 100).
    static func contains(visitorID: String, campaignID: String, percent: Double) -> Bool {
        contains(visitorID: visitorID, key: campaignKey(campaignID), percent: percent)
    }

    /// The key a campaign is bucketed by: `campaign:` and its id, apart from every condition's key.
    static func campaignKey(_ campaignID: String) -> String {
        "campaign:\(campaignID)"
    }

    /// Whether `visitorId` is in the control group keyed `key` at `percent` (0 to 100).
    static func contains(visitorID: String, key: String, percent: Double) -> Bool {
        guard percent > 0 else { return false }
        guard percent < 100 else { return true }
        return Double(bucket(visitorID: visitorID, key: key)) < percent * 100
    }

    /// The visitor's bucket for the condition, 0 to 9,999.
    static func bucket(visitorID: String, conditionID: Int) -> UInt64 {
        bucket(visitorID: visitorID, key: String(conditionID))
    }

    /// The visitor's bucket for a key, 0 to 9,999.
    static func bucket(visitorID: String, key: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in visitorID.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        hash = (hash ^ UInt64(UInt8(ascii: ":"))) &* 0x0000_0100_0000_01B3
        for byte in key.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return finalized(hash) % 10_000
    }

    /// MurmurHash3's `fmix64`: an invertible mix in which every input bit flips each output bit with
    /// probability close to one half.
    static func finalized(_ value: UInt64) -> UInt64 {
        var mixed = value
        mixed ^= mixed >> 33
        mixed &*= 0xff51_afd7_ed55_8ccd
        mixed ^= mixed >> 33
        mixed &*= 0xc4ce_b9fe_1a85_ec53
        mixed ^= mixed >> 33
        return mixed
    }
}

/// The checksum of version-2 journal records: 64-bit words multiplied into four running states, folded to 32 bits.
///
/// Each step takes one 8-byte word: `state = mix(state ^ word)`, where `mix` multiplies by an odd constant to the
/// full 128-bit product and folds its halves together. A changed bit thus changes about half the bits of its
/// state, so damage that the next words could cancel would have to be about as wide as a word; a change confined
/// to one word changes the state unless the fold collides (odds about 2⁻⁶⁴). Four states take the words in turn,
/// so that four multiplications are in flight at once; at the end they are mixed together in order with the
/// length, then with the record's header fields, and folded to 32 bits, where any damage goes unseen with odds
/// of about 2⁻³² (as with a CRC-32 for damage wider than 32 bits). About 0.6 instructions a byte against the
/// CRC-32's 2.6 (`ACTUATE_BENCH_PROFILE=journal-open`); `WordMixChecksumTests` flips every bit and every burst
/// of up to 32 bits of sample records and finds each one.
enum WordMixChecksum {
    /// The odd multiplier of every step (the 64-bit golden ratio).
    private static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
    /// The states' starting values, different so that words swapped between states change the result.
    private static let seeds: (UInt64, UInt64, UInt64, UInt64) = (
        0xA076_1D64_78BD_642F, 0xE703_7ED1_A0B4_28DB, 0x8EBC_6AF0_9C88_C6E3, 0x5899_65CC_7537_4CC3
    )

    /// One step: `value` times the multiplier to 128 bits, the halves folded together.
    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        let product = value.multipliedFullWidth(by: multiplier)
        return product.high ^ product.low
    }

    /// The 64-bit digest of a payload, which ``seal(_:fields:_:)`` completes with the record's header fields.
    ///
    /// The last partial word is read as the last eight bytes (overlapping the word before) when the payload has
    /// eight, and zero-padded otherwise; the length goes into the digest, so no two payloads share their words.
    static func digest(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var (a, b, c, d) = seeds
        let count = bytes.count
        guard count > 0, let start = bytes.baseAddress else { return mix(a ^ mix(b ^ mix(c ^ mix(d)))) }
        var pointer = start
        var remaining = count
        while remaining >= 32 {
            a = mix(a ^ pointer.loadUnaligned(as: UInt64.self).littleEndian)
            b = mix(b ^ pointer.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian)
            c = mix(c ^ pointer.loadUnaligned(fromByteOffset: 16, as: UInt64.self).littleEndian)
            d = mix(d ^ pointer.loadUnaligned(fromByteOffset: 24, as: UInt64.self).littleEndian)
            pointer += 32
            remaining -= 32
        }
        while remaining >= 8 {
            a = mix(a ^ pointer.loadUnaligned(as: UInt64.self).littleEndian)
            pointer += 8
            remaining -= 8
        }
        if remaining > 0 {
            var last: UInt64 = 0
            if count >= 8 {
                last = (start + count - 8).loadUnaligned(as: UInt64.self).littleEndian
            } else {
                for index in 0..<remaining {
                    last |= UInt64(pointer.load(fromByteOffset: index, as: UInt8.self)) << (8 * index)
                }
            }
            b = mix(b ^ last)
        }
        return mix(a ^ mix(b ^ mix(c ^ mix(d ^ UInt64(count)))))
    }

    /// The checksum of a record: the payload's ``digest(_:)`` followed by the header's two field words.
    static func seal(_ digest: UInt64, fields first: UInt64, _ second: UInt64) -> UInt32 {
        let state = mix(mix(digest ^ first) ^ second)
        return UInt32(truncatingIfNeeded: state ^ (state >> 32))
    }
}

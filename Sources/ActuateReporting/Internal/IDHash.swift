/// A stable 64-bit hash of an id's text, never 0, so that the statistics keep 8 bytes per id instead of the string.
/// Two different ids collide with probability about 2⁻⁶⁴ per pair.
///
/// The text's UTF-8 bytes are read eight at a time, each word mixed in as MurmurHash3's 64-bit body does, and the
/// result goes through its finalizer, so every bit of the hash depends on every byte.
enum IDHash {
    /// The hash of `text`.
    static func of(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { of(utf8: $0) }
    }

    /// The hash of the text whose UTF-8 bytes are `utf8`.
    static func of(utf8: UnsafeBufferPointer<UInt8>) -> UInt64 {
        ofASCII(utf8: utf8).hash
    }

    /// The hash of the text whose UTF-8 bytes are `utf8`, and whether they are all ASCII (so that they are valid
    /// UTF-8, and a string made of them has the same bytes).
    /// - Parameters:
    ///   - utf8: The bytes.
    ///   - readable: How many bytes from `utf8`'s start may be read (at least its count): with eight past the last
    ///     whole word, the rest is read as one word and masked, rather than a byte at a time.
    static func ofASCII(utf8: UnsafeBufferPointer<UInt8>, readable: Int = 0) -> (hash: UInt64, isASCII: Bool) {
        let count = utf8.count
        var hash = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: count)
        var highBits: UInt64 = 0
        var index = 0
        if let base = UnsafeRawPointer(utf8.baseAddress) {
            while index + 8 <= count {
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                highBits |= word
                hash = mix(hash, word)
                index += 8
            }
            if index < count, index + 8 <= readable {
                let rest = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let word = rest & (1 << UInt64(8 * (count - index)) - 1)
                highBits |= word
                hash = mix(hash, word)
            } else if index < count {
                var word: UInt64 = 0
                var shift: UInt64 = 0
                while index < count {
                    word |= UInt64(utf8[index]) << shift
                    shift += 8
                    index += 1
                }
                highBits |= word
                hash = mix(hash, word)
            }
        }
        return (finish(hash), highBits & 0x8080_8080_8080_8080 == 0)
    }

    /// The hash of an ASCII text of `count` bytes, at most 15, given as two little-endian words, zero past its end
    /// (``JSONBytesParser/ShortASCII``): the same as ``ofASCII(utf8:readable:)``'s, from the words it would read.
    @inline(__always)
    static func ofShortASCII(first: UInt64, second: UInt64, count: Int) -> UInt64 {
        var hash = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: count)
        if count > 0 { hash = mix(hash, first) }
        if count > 8 { hash = mix(hash, second) }
        return finish(hash)
    }

    /// MurmurHash3's 64-bit finalizer, never 0.
    @inline(__always)
    private static func finish(_ hash: UInt64) -> UInt64 {
        var hash = hash
        hash ^= hash >> 33
        hash &*= 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        hash &*= 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 33
        return hash == 0 ? 1 : hash
    }

    @inline(__always)
    private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        var word = word &* 0x87C3_7B91_1142_53D5
        word = (word << 31) | (word >> 33)
        word &*= 0x4CF5_AD43_2745_937F
        var hash = hash ^ word
        hash = (hash << 27) | (hash >> 37)
        return hash &* 5 &+ 0x52DC_E729
    }
}

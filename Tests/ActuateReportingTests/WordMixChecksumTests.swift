import Testing

@testable import ActuateReporting

@Suite("Word-mix checksum")
struct WordMixChecksumTests {
    /// Reproducible bytes, the same on every run.
    static func bytes(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    /// The checksum of a version-2 record: `record` is its 16 header field bytes followed by its payload.
    static func checksum(_ record: [UInt8]) -> UInt32 {
        record.withUnsafeBytes { raw in
            WordMixChecksum.seal(
                WordMixChecksum.digest(UnsafeRawBufferPointer(rebasing: raw[16...])),
                fields: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            )
        }
    }

    @Test(
        "every single flipped bit of the fields or the payload changes the checksum",
        arguments: [0, 1, 7, 8, 9, 31, 32, 33, 40, 63, 64, 65, 100, 255, 300]
    )
    func singleBits(payloadLength: Int) {
        let record = Self.bytes(16 + payloadLength, seed: UInt64(payloadLength))
        let original = Self.checksum(record)
        var missed: [Int] = []
        for bit in 0..<(record.count * 8) {
            var damaged = record
            damaged[bit / 8] ^= 1 << (bit % 8)
            if Self.checksum(damaged) == original { missed.append(bit) }
        }
        #expect(missed.isEmpty)
    }

    @Test("every burst of 2 to 32 bits, at every bit offset, changes the checksum", arguments: [40, 100, 237])
    func bursts(payloadLength: Int) {
        let record = Self.bytes(16 + payloadLength, seed: UInt64(payloadLength) << 8)
        let original = Self.checksum(record)
        var pattern = Self.bytes(4_096, seed: 7).makeIterator()
        var missed: [String] = []
        for start in 0..<(record.count * 8) {
            for width in 2...32 where start + width <= record.count * 8 {
                // A burst flips its first and last bits and any of the bits between.
                var damaged = record
                for bit in start..<(start + width) {
                    let inside = bit != start && bit != start + width - 1
                    if inside, pattern.next().map({ $0 & 1 == 0 }) ?? true { continue }
                    damaged[bit / 8] ^= 1 << (bit % 8)
                }
                if pattern.next() == nil { pattern = Self.bytes(4_096, seed: UInt64(start)).makeIterator() }
                if Self.checksum(damaged) == original { missed.append("\(start)+\(width)") }
            }
        }
        #expect(missed.isEmpty)
    }

    @Test("every pair of flipped bits in a 48-byte payload and its fields changes the checksum")
    func bitPairs() {
        let record = Self.bytes(16 + 48, seed: 3)
        let original = Self.checksum(record)
        let bits = record.count * 8
        var missed = 0
        for first in 0..<bits {
            var once = record
            once[first / 8] ^= 1 << (first % 8)
            for second in (first + 1)..<bits {
                var twice = once
                twice[second / 8] ^= 1 << (second % 8)
                if Self.checksum(twice) == original { missed += 1 }
            }
        }
        #expect(missed == 0)
    }

    @Test("zero bytes added or removed, and words swapped, change the checksum")
    func lengthAndOrder() {
        let zeros = (0...70).map { Self.checksum([UInt8](repeating: 0, count: 16 + $0)) }
        #expect(Set(zeros).count == zeros.count)
        let record = Self.bytes(16 + 96)
        var swapped = record
        swapped.replaceSubrange(16..<24, with: record[48..<56])
        swapped.replaceSubrange(48..<56, with: record[16..<24])
        #expect(Self.checksum(swapped) != Self.checksum(record))
        var blocks = record
        blocks.replaceSubrange(16..<48, with: record[48..<80])
        blocks.replaceSubrange(48..<80, with: record[16..<48])
        #expect(Self.checksum(blocks) != Self.checksum(record))
    }

    @Test("the checksum of a fixed record never changes, since files on disk carry it")
    func fixedValue() {
        let payload = Array("123456789".utf8)
        let value = payload.withUnsafeBytes { WordMixChecksum.seal(WordMixChecksum.digest($0), fields: 9, 1) }
        #expect(value == Self.pinned)
    }

    /// The checksum of the payload "123456789" with fields 9 and 1, as version 2 defines it.
    static let pinned: UInt32 = 0x545C_632F
}

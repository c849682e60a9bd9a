import Testing

@testable import ActuateReporting

@Suite("CRC-32")
struct CRC32Tests {
    /// The checksum computed one bit at a time, straight from the polynomial.
    func bitwise(_ bytes: ArraySlice<UInt8>, continuing initial: UInt32) -> UInt32 {
        var crc = ~initial
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc & 1) == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    @Test("matches the bitwise definition at every length, alignment and starting value around the 16-byte steps")
    func matchesBitwiseDefinition() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let bytes = (0..<160).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        for start in 0..<4 {
            for length in 0...(bytes.count - start) {
                let slice = bytes[start..<(start + length)]
                for initial: UInt32 in [0, 0xCBF4_3926, 0xFFFF_FFFF] {
                    let expected = bitwise(slice, continuing: initial)
                    let actual = slice.withUnsafeBytes { CRC32.checksum($0, continuing: initial) }
                    #expect(actual == expected, "start \(start), length \(length), initial \(initial)")
                }
            }
        }
    }
}

import Testing

@testable import ActuateReporting

@Suite("Session numbers and sets of them: the same answers as a dictionary and a Set")
struct SessionNumberSetTests {
    @Test("sessions are numbered in order of appearance, each id once, across the table's growth")
    func numbering() {
        var numbers = SessionNumbers()
        var reference: [String: UInt32] = [:]
        var generator = SplitMix(state: 7)
        for _ in 0..<20_000 {
            let id = "session-\(generator.next() % 5_000)"
            let number = numbers.number(of: id)
            if let known = reference[id] {
                #expect(number == known)
            } else {
                #expect(Int(number) == reference.count)
                reference[id] = number
            }
        }
        #expect(numbers.count == reference.count)
    }

    @Test("a set counts as a Set does, whether it stays hashed or turns into a bitmap, and adds its members to one")
    func counting() {
        var generator = SplitMix(state: 11)
        for (range, inserts) in [(1_000_000, 300), (2_000, 5_000), (70_000, 60_000)] {
            var set = SessionNumberSet()
            var reference = Set<UInt32>()
            for _ in 0..<inserts {
                let number = UInt32(generator.next() % UInt64(range))
                set.insert(number)
                reference.insert(number)
            }
            #expect(set.count == reference.count)
            var bitmap = [UInt64](repeating: 0, count: (range + 63) / 64)
            set.addMembers(to: &bitmap)
            #expect(bitmap.reduce(0) { $0 + $1.nonzeroBitCount } == reference.count)
            #expect(reference.allSatisfy { bitmap[Int($0 >> 6)] & (1 << UInt64($0 & 63)) != 0 })
        }
    }

    /// SplitMix64, for the same numbers in every run.
    struct SplitMix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
    }
}

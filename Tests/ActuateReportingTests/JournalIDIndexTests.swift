import Foundation
import Testing

@testable import ActuateReporting

@Suite("Journal id index")
struct JournalIDIndexTests {
    @Test("insert, look up and remove agree with a dictionary, through growth and removals inside runs of slots")
    func matchesDictionary() {
        var index = JournalIDIndex()
        var model: [JournalEventKey: UInt64] = [:]
        // Few distinct keys and many operations, so that runs of occupied slots form and are broken by removals.
        let keys = (0..<300).map { _ in JournalEventKey(UUID()) }
        var generator = SystemRandomNumberGenerator()
        var sequence: UInt64 = 0
        for step in 0..<20_000 {
            let key = keys[Int.random(in: 0..<keys.count, using: &generator)]
            if Bool.random(using: &generator) {
                sequence += 1
                let existing = index.insert(key, sequence: sequence)
                #expect(existing == model[key], "step \(step)")
                if model[key] == nil { model[key] = sequence }
            } else {
                index.remove(key)
                model[key] = nil
            }
            #expect(index.count == model.count, "step \(step)")
        }
        for key in keys { #expect(index[key] == model[key]) }
    }

    @Test("an insertion with a hash computed ahead finds the same slot as one without")
    func precomputedHash() {
        var index = JournalIDIndex()
        index.reserveCapacity(1_000)
        let keys = (0..<1_000).map { _ in JournalEventKey(UUID()) }
        index.touch(hashes: keys.map(JournalIDIndex.hash))
        for (offset, key) in keys.enumerated() {
            #expect(index.insert(key, hash: JournalIDIndex.hash(key), sequence: UInt64(offset + 1)) == nil)
        }
        for (offset, key) in keys.enumerated() {
            #expect(index[key] == UInt64(offset + 1))
            #expect(index.insert(key, sequence: 5_000) == UInt64(offset + 1))
        }
        #expect(index.count == keys.count)
        #expect(index[JournalEventKey(UUID())] == nil)
    }
}

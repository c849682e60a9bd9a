import Testing

@testable import ActuateCore
@testable import ActuatePlugins

@Suite("Ring buffer")
struct RingBufferTests {
    @Test("appends and evicts in constant space, numbering every element")
    func appendsAndEvicts() {
        var buffer = RingBuffer<Int>(capacity: 3)
        let sequences = (1...5).map { buffer.append($0) }
        #expect(sequences == [0, 1, 2, 3, 4])
        #expect(buffer.elements == [3, 4, 5])
        #expect(buffer.count == 3)
        #expect(buffer.totalAppended == 5)
        #expect(buffer[sequence: 1] == nil)
        #expect(buffer[sequence: 4] == 5)
        buffer[sequence: 3] = 40
        #expect(buffer.elements == [3, 40, 5])
        buffer.removeAll()
        #expect(buffer.elements.isEmpty)
        #expect(buffer.append(6) == 5)
        #expect(buffer.elements == [6])
    }

    @Test("updates an element by sequence only while it is held")
    func updatesHeldElements() {
        var buffer = RingBuffer<Int>(capacity: 2)
        for value in 1...3 { buffer.append(value) }
        #expect(!buffer.update(sequence: 0) { $0 += 100 })
        #expect(buffer.update(sequence: 2) { $0 += 100 })
        #expect(buffer.elements == [2, 103])
    }

    @Test("hands back what it reads of the element it evicts, in place, and finds the newest match")
    func readsEvictedElement() {
        var buffer = RingBuffer<String>(capacity: 2)
        let read: (inout String) -> Int? = { $0.hasPrefix("open") ? $0.count : nil }
        #expect(buffer.append("open one", readingEvicted: read) == nil)
        #expect(buffer.append("done", readingEvicted: read) == nil)
        #expect(buffer.append("open three", readingEvicted: read) == "open one".count)
        #expect(buffer.append("open four", readingEvicted: read) == nil)
        #expect(buffer.elements == ["open three", "open four"])
        #expect(buffer.newestSequence { $0.hasPrefix("open") } == 3)
        #expect(buffer.newestSequence { $0 == "open three" } == 2)
        #expect(buffer.newestSequence { $0 == "done" } == nil)
    }

    @Test("overwrites the element it evicts in place, and makes a new one only when none is evicted")
    func overwritesEvictedElement() {
        var buffer = RingBuffer<String>(capacity: 2)
        var made: [String] = []
        func append(_ value: String) -> String? {
            buffer.append(
                making: {
                    made.append(value)
                    return value
                },
                overwriting: { evicted in
                    defer { evicted = value }
                    return evicted
                }
            )
        }
        #expect(append("a") == nil)
        #expect(append("b") == nil)
        #expect(append("c") == "a")
        #expect(append("d") == "b")
        #expect(made == ["a", "b"])
        #expect(buffer.elements == ["c", "d"])
        #expect(buffer.newestSequence { $0 == "c" } == 2)
        buffer.removeAll()
        #expect(append("e") == nil)
        #expect(made == ["a", "b", "e"])
        #expect(buffer.elements == ["e"])
        #expect(buffer.totalAppended == 5)
    }

    @Test("updates the newest element a change accepts, in place, looking back from the newest")
    func updatesNewestAccepted() {
        var buffer = RingBuffer<String>(capacity: 3)
        for value in ["a", "b", "a", "c"] { buffer.append(value) }
        #expect(
            buffer.updateNewest {
                guard $0 == "a" else { return false }
                $0 = "A"
                return true
            }
        )
        #expect(buffer.elements == ["b", "A", "c"])
        #expect(!buffer.updateNewest { $0 == "z" })
        buffer.removeAll()
        #expect(!buffer.updateNewest { _ in true })
    }

    @Test("a capacity below one holds one element")
    func minimumCapacity() {
        var buffer = RingBuffer<String>(capacity: 0)
        buffer.append("a")
        buffer.append("b")
        #expect(buffer.capacity == 1)
        #expect(buffer.elements == ["b"])
    }
}

import Testing

@testable import ActuateCore

@Suite("Retired plugin lists: kept until every thread inside a dispatch call then has left it")
struct RetiredPluginListsTests {
    @Test("a list replaced while no thread is inside a dispatch call is released at once")
    func noThreadInside() {
        var retired = RetiredPluginLists<String>()
        // Even sequences: threads outside any dispatch call.
        let threads: [UInt: UInt64] = [1: 0, 2: 4]
        retired.retire("first", threads: threads)
        #expect(retired.release(threads: threads) == ["first"])
        #expect(retired.count == 0)
    }

    @Test("a thread inside a dispatch call keeps the list until its sequence moves on")
    func threadInsideKeepsList() {
        var retired = RetiredPluginLists<String>()
        retired.retire("first", threads: [1: 3, 2: 4])
        #expect(retired.release(threads: [1: 3, 2: 4]).isEmpty)
        // Thread 2 entering a call after the list was replaced does not hold it: it loads the new list.
        #expect(retired.release(threads: [1: 3, 2: 5]).isEmpty)
        #expect(retired.count == 1)
        // Thread 1 left its call (and may be inside another one, which loaded a newer list).
        #expect(retired.release(threads: [1: 5, 2: 5]) == ["first"])
        #expect(retired.count == 0)
    }

    @Test("a thread that exited holds nothing")
    func exitedThread() {
        var retired = RetiredPluginLists<String>()
        retired.retire("first", threads: [1: 7])
        #expect(retired.release(threads: [:]) == ["first"])
    }

    @Test("each list waits only for the threads that were inside a call when it was replaced")
    func listsWaitIndependently() {
        var retired = RetiredPluginLists<String>()
        retired.retire("first", threads: [1: 1, 2: 2])
        retired.retire("second", threads: [1: 1, 2: 3])
        #expect(retired.release(threads: [1: 2, 2: 3]) == ["first"])
        #expect(retired.count == 1)
        #expect(retired.release(threads: [1: 3, 2: 3]).isEmpty)
        #expect(retired.release(threads: [1: 3, 2: 4]) == ["second"])
    }
}

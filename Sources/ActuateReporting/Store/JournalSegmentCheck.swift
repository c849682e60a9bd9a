import Dispatch
import Synchronization

/// One segment's read and check (``JournalCheckedSegment``), started on a global-queue thread as soon as recovery
/// reaches the segment's place in its window, so that reading and checking later segments overlap the opening
/// thread's registering of earlier ones.
///
/// ``result()`` never waits for a check that has not started: the opening thread then reads and checks the segment
/// itself, so opening a store makes progress even when no global-queue thread is free.
final class JournalSegmentCheck: Sendable {
    /// Returns a segment's bytes.
    typealias Read = @Sendable () throws -> [UInt8]

    private enum Stage {
        /// Not yet taken by a thread: how to get the segment's bytes.
        case waiting(Read)
        /// Being read and checked on a global-queue thread, which signals ``done`` when it stores the result.
        case checking
        /// Checked, or its read failed, and not yet taken by ``result()``.
        case checked(Result<JournalCheckedSegment, any Error>)
        /// Taken by ``result()``.
        case taken
    }

    private let number: UInt64
    private let maxPayload: Int
    private let stage: Mutex<Stage>
    private let done = DispatchSemaphore(value: 0)

    /// Starts reading segment `number` with `read` and checking it.
    ///
    /// - Parameter read: Returns the segment's bytes; called once, on whichever thread checks the segment.
    init(number: UInt64, maxPayload: Int, read: @escaping Read) {
        self.number = number
        self.maxPayload = maxPayload
        stage = Mutex(.waiting(read))
        DispatchQueue.global().async { [self] in runIfWaiting() }
    }

    /// The checked segment, waiting for the check if another thread is running it.
    ///
    /// - Throws: What reading the segment threw.
    func result() throws -> JournalCheckedSegment {
        let taken = stage.withLock { stage -> (read: Read?, checked: Result<JournalCheckedSegment, any Error>?) in
            switch stage {
            case .waiting(let read):
                stage = .taken
                return (read, nil)
            case .checked(let checked):
                stage = .taken
                return (nil, checked)
            case .checking:
                return (nil, nil)
            case .taken:
                preconditionFailure("a segment check's result was taken twice")
            }
        }
        if let read = taken.read { return try check(read) }
        if let checked = taken.checked { return try checked.get() }
        done.wait()
        return try stage.withLock { stage in
            guard case .checked(let checked) = stage else {
                preconditionFailure("a segment check signalled before storing its result")
            }
            stage = .taken
            return checked
        }.get()
    }

    private func check(_ read: () throws -> [UInt8]) throws -> JournalCheckedSegment {
        JournalCheckedSegment(number: number, bytes: try read(), maxPayload: maxPayload)
    }

    private func runIfWaiting() {
        let read = stage.withLock { stage -> Read? in
            guard case .waiting(let read) = stage else { return nil }
            stage = .checking
            return read
        }
        guard let read else { return }
        let checked = Result { try check(read) }
        stage.withLock { $0 = .checked(checked) }
        done.signal()
    }
}

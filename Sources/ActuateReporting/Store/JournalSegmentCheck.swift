import Dispatch
import Synchronization

/// One segment's check (``JournalCheckedSegment``), started on a global-queue thread as soon as the segment is
/// read, so that checking later segments overlaps the opening thread's registering of earlier ones.
///
/// ``result()`` never waits for a check that has not started: the opening thread then runs the check itself, so
/// opening a store makes progress even when no global-queue thread is free.
final class JournalSegmentCheck: Sendable {
    private enum Stage {
        /// Read, and not yet taken by a thread.
        case waiting([UInt8])
        /// Being checked on a global-queue thread, which signals ``done`` when it stores the result.
        case checking
        /// Checked, and not yet taken by ``result()``.
        case checked(JournalCheckedSegment)
        /// Taken by ``result()``.
        case taken
    }

    private let number: UInt64
    private let maxPayload: Int
    private let stage: Mutex<Stage>
    private let done = DispatchSemaphore(value: 0)

    /// Starts checking segment `number`, whose file holds `bytes`.
    init(number: UInt64, bytes: [UInt8], maxPayload: Int) {
        self.number = number
        self.maxPayload = maxPayload
        stage = Mutex(.waiting(bytes))
        DispatchQueue.global().async { [self] in runIfWaiting() }
    }

    /// The checked segment, waiting for the check if another thread is running it.
    func result() -> JournalCheckedSegment {
        let taken = stage.withLock { stage -> (bytes: [UInt8]?, checked: JournalCheckedSegment?) in
            switch stage {
            case .waiting(let bytes):
                stage = .taken
                return (bytes, nil)
            case .checked(let checked):
                stage = .taken
                return (nil, checked)
            case .checking:
                return (nil, nil)
            case .taken:
                preconditionFailure("a segment check's result was taken twice")
            }
        }
        if let bytes = taken.bytes {
            return JournalCheckedSegment(number: number, bytes: bytes, maxPayload: maxPayload)
        }
        if let checked = taken.checked { return checked }
        done.wait()
        return stage.withLock { stage in
            guard case .checked(let checked) = stage else {
                preconditionFailure("a segment check signalled before storing its result")
            }
            stage = .taken
            return checked
        }
    }

    private func runIfWaiting() {
        let bytes = stage.withLock { stage -> [UInt8]? in
            guard case .waiting(let bytes) = stage else { return nil }
            stage = .checking
            return bytes
        }
        guard let bytes else { return }
        let checked = JournalCheckedSegment(number: number, bytes: bytes, maxPayload: maxPayload)
        stage.withLock { $0 = .checked(checked) }
        done.signal()
    }
}

// A minimal program, using only Synchronization.Mutex and two threads, on which the Thread Sanitizer reports
// a race that cannot happen. README.md in this folder explains it; ./run-mutex-contention runs it.
//
// Thread A takes the lock and holds it until thread B has started to wait for it; then each thread increments
// the protected value inside the lock. Nothing but the lock orders the two writes: the flags are relaxed
// atomics, which give the sanitizer no happens-before edge. With `--nslock` the same exchange uses NSLock.
import Dispatch
import Foundation
import Synchronization

/// An integer behind a lock.
protocol LockedCounter: Sendable {
    func increment(whileLocked: () -> Void)
}

final class MutexCounter: LockedCounter {
    let value = Mutex(0)
    func increment(whileLocked: () -> Void) {
        value.withLock { value in
            whileLocked()
            value += 1
        }
    }
}

final class NSLockCounter: LockedCounter, @unchecked Sendable {  // Safe: `value` is only touched under `lock`.
    let lock = NSLock()
    var value = 0
    func increment(whileLocked: () -> Void) {
        lock.withLock {
            whileLocked()
            value += 1
        }
    }
}

let aHoldsLock = Atomic<Bool>(false)
let bIsWaiting = Atomic<Bool>(false)
let counter: any LockedCounter = CommandLine.arguments.contains("--nslock") ? NSLockCounter() : MutexCounter()
let done = DispatchGroup()
done.enter()
done.enter()
Thread {  // A: holds the lock until B waits for it, then writes.
    counter.increment {
        aHoldsLock.store(true, ordering: .relaxed)
        while !bIsWaiting.load(ordering: .relaxed) {}
        let end = Date().addingTimeInterval(0.2)  // B is now in Mutex's out-of-line slow path.
        while Date() < end {}
    }
    done.leave()
}.start()
Thread {  // B: waits for the lock A holds, then writes.
    while !aHoldsLock.load(ordering: .relaxed) {}
    bIsWaiting.store(true, ordering: .relaxed)
    counter.increment {}
    done.leave()
}.start()
done.wait()
print("\(type(of: counter)): both threads incremented")

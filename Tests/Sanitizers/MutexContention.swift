// A minimal program, using only Synchronization.Mutex and two threads, on which the Thread Sanitizer reports
// a race that cannot happen. README.md in this folder explains it; ./run-mutex-contention runs every case.
//
// Thread A takes the lock and holds it until thread B has started to wait for it; then each thread increments
// the protected value inside the lock. Nothing but the lock orders the two writes: the flags are relaxed
// atomics, which give the sanitizer no happens-before edge.
//
//   (no argument)    Mutex, contended: the sanitizer reports a race (a false positive).
//   --nslock         the same with NSLock (pthread_mutex, which the sanitizer intercepts): no report.
//   --uncontended    Mutex, but B asks for the lock only after A has released it: no report.
//   --real-race      Mutex, contended, and B also writes a plain variable that A writes under the lock, without
//                    taking the lock: a real race, which must still be reported with the annotations preloaded.
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

let arguments = Set(CommandLine.arguments.dropFirst())
let uncontended = arguments.contains("--uncontended")
let realRace = arguments.contains("--real-race")
let counter: any LockedCounter = arguments.contains("--nslock") ? NSLockCounter() : MutexCounter()
nonisolated(unsafe) var unprotected = 0  // Unsafe on purpose, for --real-race only.
let aHoldsLock = Atomic<Bool>(false)
let bIsWaiting = Atomic<Bool>(false)
let aReleased = Atomic<Bool>(false)
let done = DispatchGroup()
done.enter()
done.enter()
Thread {  // A: holds the lock until B waits for it (unless uncontended), then writes.
    counter.increment {
        aHoldsLock.store(true, ordering: .relaxed)
        if !uncontended {
            while !bIsWaiting.load(ordering: .relaxed) {}
            let end = Date().addingTimeInterval(0.2)  // B is now in Mutex's out-of-line slow path.
            while Date() < end {}
        }
        if realRace { unprotected += 1 }
    }
    aReleased.store(true, ordering: .relaxed)
    done.leave()
}.start()
Thread {  // B: waits for the lock A holds, then writes.
    while !aHoldsLock.load(ordering: .relaxed) {}
    if realRace { unprotected += 1 }
    if uncontended {
        while !aReleased.load(ordering: .relaxed) {}
    }
    bIsWaiting.store(true, ordering: .relaxed)
    counter.increment {}
    done.leave()
}.start()
done.wait()
print("\(type(of: counter)): both threads incremented")

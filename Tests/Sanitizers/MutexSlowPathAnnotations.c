// Tells the Thread Sanitizer about the synchronization inside Synchronization.Mutex's out-of-line slow path.
//
// Mutex.withLock is inlined into our (instrumented) code, and so is its fast path: one atomic compare-exchange
// to lock and one to unlock, which the sanitizer sees. When the lock is contended, `_lockSlow`,
// `_tryLockSlow` and `_unlockSlow` run instead. They live in libswiftSynchronization.so, which is not
// instrumented, and they take and release the lock with their own compare-exchange and with futex system
// calls, none of which the sanitizer sees. It then misses the happens-before edge between two threads' critical
// sections and reports a race that cannot happen (MutexContention.swift reproduces it; README.md has the
// details).
//
// This library, preloaded with LD_PRELOAD into the sanitized test process only, wraps exactly those three
// functions: it calls the real one (found with dlsym(RTLD_NEXT)), and adds the annotation the sanitizer would
// have recorded had the function been instrumented: `__tsan_acquire` on the lock word after taking the lock,
// `__tsan_release` before releasing it. The lock word is the same address the inlined fast path's atomics use,
// so fast and slow paths now synchronize with each other. Nothing else is hidden: a real race on data that is
// not accessed under the same Mutex is still reported (see README.md for the control).
//
// The three functions use the Swift calling convention: the `_MutexHandle` (whose first field is the atomic
// lock word) is passed by address in the Swift self register (clang: `swift_context`), and `_lockSlow` takes
// the caller's thread id.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SWIFT_CC __attribute__((swiftcall))
#define SWIFT_SELF __attribute__((swift_context))

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define TRY_LOCK_SLOW "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"

// Defined by the sanitizer runtime in a sanitized process; null (weak) anywhere else, such as the child
// processes the tests start, where the wrappers only forward.
extern void __tsan_acquire(void *address) __attribute__((weak));
extern void __tsan_release(void *address) __attribute__((weak));

typedef SWIFT_CC void (*LockSlow)(uint32_t selfID, void *handle SWIFT_SELF);
typedef SWIFT_CC bool (*TryLockSlow)(void *handle SWIFT_SELF);
typedef SWIFT_CC void (*UnlockSlow)(void *handle SWIFT_SELF);

/// The real function `name`, looked up once; every thread that looks it up finds the same address.
static void *real(void **cache, const char *name) {
    void *function = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (function == NULL) {
        function = dlsym(RTLD_NEXT, name);
        if (function == NULL) {
            fprintf(stderr, "MutexSlowPathAnnotations: %s not found: %s\n", name, dlerror());
            abort();
        }
        __atomic_store_n(cache, function, __ATOMIC_RELEASE);
    }
    return function;
}

static void *lockSlow, *tryLockSlow, *unlockSlow;

SWIFT_CC void wrappedLockSlow(uint32_t selfID, void *handle SWIFT_SELF) __asm__(LOCK_SLOW);
SWIFT_CC bool wrappedTryLockSlow(void *handle SWIFT_SELF) __asm__(TRY_LOCK_SLOW);
SWIFT_CC void wrappedUnlockSlow(void *handle SWIFT_SELF) __asm__(UNLOCK_SLOW);

SWIFT_CC void wrappedLockSlow(uint32_t selfID, void *handle SWIFT_SELF) {
    ((LockSlow)real(&lockSlow, LOCK_SLOW))(selfID, handle);
    if (__tsan_acquire) __tsan_acquire(handle);
}

SWIFT_CC bool wrappedTryLockSlow(void *handle SWIFT_SELF) {
    bool locked = ((TryLockSlow)real(&tryLockSlow, TRY_LOCK_SLOW))(handle);
    if (locked && __tsan_acquire) __tsan_acquire(handle);
    return locked;
}

SWIFT_CC void wrappedUnlockSlow(void *handle SWIFT_SELF) {
    if (__tsan_release) __tsan_release(handle);
    ((UnlockSlow)real(&unlockSlow, UNLOCK_SLOW))(handle);
}

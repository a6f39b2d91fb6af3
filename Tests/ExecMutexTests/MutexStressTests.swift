// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecMutex
import ExecTestSupport
import Testing

/// The mutexes under contention: 4 threads each make 250,000 increments of a counter that has no lock of its own.
/// Only the mutex keeps the total exact, and the counter notices two holders at once. Under the Thread Sanitizer a
/// missing lock is also reported as a data race.
// Guarantees: G-thread-safety-any-thread
@Suite struct MutexStressTests {
    static let threads = 4
    /// Under the Thread Sanitizer each contended lock costs several microseconds, so it makes 50,000 per thread there.
    static let incrementsPerThread = isThreadSanitizerActive ? 50_000 : 250_000

    @Test(arguments: [PThreadMutex.Kind.normal, .recursive, .errorChecking])
    func pthreadMutexSyncIncrementsAreExact(kind: PThreadMutex.Kind) {
        let mutex = PThreadMutex(type: kind)
        let counter = UnguardedCounter()
        let perThread = Self.incrementsPerThread
        let finished = runOnThreads(Self.threads) { _ in
            for _ in 0..<perThread { mutex.sync { counter.increment() } }
        }
        #expect(finished, "the threads did not finish: the mutex deadlocked or starved")
        guard finished else { return }
        #expect(counter.value == Self.threads * perThread)
        #expect(counter.overlapCount == 0, "two threads held the mutex at once")
    }

    // Guarantees: G-mutex-lockedbox-serialized
    @Test func lockedBoxWithLockIncrementsAreExact() {
        let box = LockedBox(0)
        let perThread = Self.incrementsPerThread
        let finished = runOnThreads(Self.threads) { _ in
            for _ in 0..<perThread { box.withLock { $0 += 1 } }
        }
        #expect(finished, "the threads did not finish: the box's lock deadlocked or starved")
        guard finished else { return }
        #expect(box.withLock { $0 } == Self.threads * perThread)
    }

    // Guarantees: G-mutex-lockedbox-serialized, G-mutex-try-fails-when-held
    @Test func lockedBoxTryWithLockRunsExactlyWhenItSaysSo() {
        // Half of the attempts use `tryWithLock`, retried until it gets the lock: a `nil` must mean "not run".
        let box = LockedBox(0)
        let perThread = Self.incrementsPerThread
        let finished = runOnThreads(Self.threads) { thread in
            for step in 0..<perThread {
                if (step + thread) % 2 == 0 {
                    while box.tryWithLock({ $0 += 1 }) == nil {}
                } else {
                    box.withLock { $0 += 1 }
                }
            }
        }
        #expect(finished, "the threads did not finish: the box's lock deadlocked or starved")
        guard finished else { return }
        #expect(box.withLock { $0 } == Self.threads * perThread)
    }
}

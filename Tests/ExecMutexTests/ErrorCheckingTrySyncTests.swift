// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecMutex
import Testing

/// On an error-checking mutex, `trySync` from the thread that holds the lock neither stops the program (as a blocking
/// `sync` there does) nor takes the lock again: it returns `nil` without running its block.
@Suite struct ErrorCheckingTrySyncTests {
    // Guarantees: G-mutex-errorchecking-trysync-nil
    @Test func trySyncOnTheHoldingThreadReturnsNilWithoutRunningTheBlock() {
        let mutex = PThreadMutex(type: .errorChecking)
        let ran = LockedBox(false)
        let inner: Int? = mutex.sync {
            mutex.trySync {
                ran.withLock { $0 = true }
                return 1
            }
        }
        #expect(inner == nil, "trySync on the holding thread must give nil")
        #expect(ran.withLock { $0 } == false, "the block must not run")

        // The outer sync released the lock as usual: the mutex works on, from this thread and from another one.
        #expect(mutex.trySync { 2 } == 2)
        #expect(DispatchQueue.global().sync { mutex.trySync { 3 } } == 3)
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecMutex
import Testing

private struct Failure: Error, Equatable {}

/// `LockedBox.withLock` rethrows what its body throws and releases the lock either way.
@Suite struct LockedBoxRethrowTests {
    // Guarantees: G-mutex-lockedbox-rethrow-unlocks
    @Test func withLockRethrowsAndReleasesTheLock() {
        let box = LockedBox(1)
        #expect(throws: Failure.self) {
            try box.withLock { value in
                value = 2
                throw Failure()
            }
        }
        let fromAnotherThread = DispatchQueue.global().sync { box.tryWithLock { $0 } }
        #expect(fromAnotherThread == 2, "another thread must find the lock free after the throw")
        #expect(box.tryWithLock { $0 } == 2, "so must this one")
        #expect(box.withLock { $0 } == 2)
    }
}

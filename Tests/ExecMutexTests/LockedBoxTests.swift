// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecMutex
import Testing

@Suite struct LockedBoxTests {
    @Test func withLockMutatesAndReturns() {
        let box = LockedBox([1, 2])
        let count = box.withLock { values in
            values.append(3)
            return values.count
        }
        #expect(count == 3)
        #expect(box.withLock { $0 } == [1, 2, 3])
    }

    // Guarantees: G-mutex-lockedbox-serialized
    @Test func concurrentIncrementsAreNotLost() {
        let box = LockedBox(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { box.withLock { $0 += 1 } }
        }
        #expect(box.withLock { $0 } == 80_000)
    }

    // Guarantees: G-mutex-try-fails-when-held
    @Test func tryWithLockGivesNilWhileHeldElsewhere() {
        let box = LockedBox("free")
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            box.withLock { _ in
                held.signal()
                release.wait()
            }
            finished.signal()
        }
        held.wait()
        #expect(box.tryWithLock { $0 } == nil)
        release.signal()
        finished.wait()
        #expect(box.tryWithLock { $0 } == "free")
    }

    #if os(macOS) || os(Linux) || os(Windows)
    // Guarantees: G-mutex-lockedbox-nested-stops, G-mutex-normal-debug-stops
    @Test func nestedWithLockStopsInsteadOfDeadlocking() async {
        await #expect(processExitsWith: .failure) {
            let box = LockedBox(1)
            box.withLock { _ in box.withLock { _ in } }
        }
    }
    #endif
}

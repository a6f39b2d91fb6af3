// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
@_spi(ExecTesting) import ExecMutex
import Testing

/// The lock observer that ExecTesting's exploration installs on its threads (issue #39, item 5): it sees each
/// acquisition and release of an observed mutex on its thread, through every way of locking, and the observed paths
/// lock as the plain ones do.
@Suite struct LockObserverTests {
    /// Records what it sees, in order.
    final class Recorder: LockObserver, @unchecked Sendable {
        var events: [String] = []
        let names: [ObjectIdentifier: String]

        init(_ names: [ObjectIdentifier: String]) { self.names = names }

        private func name(_ mutex: PThreadMutex) -> String { names[ObjectIdentifier(mutex)] ?? "?" }
        override func willLock(_ mutex: PThreadMutex, blocking: Bool) {
            events.append("will \(blocking ? "lock" : "try") \(name(mutex))")
        }
        override func didLock(_ mutex: PThreadMutex) { events.append("locked \(name(mutex))") }
        override func didUnlock(_ mutex: PThreadMutex) { events.append("unlocked \(name(mutex))") }
    }

    @Test func anObserverSeesEveryWayOfLockingOnItsThread() {
        let mutex = PThreadMutex()
        let box = LockedBox(0)
        let recorder = Recorder([ObjectIdentifier(mutex): "m"])
        LockObserver.observing(with: recorder) {
            mutex.sync {}
            _ = mutex.trySync { 1 }
            mutex.unbalancedLock()
            mutex.unbalancedUnlock()
            #expect(mutex.unbalancedTryLock())
            mutex.unbalancedUnlock()
            box.withLock { $0 += 1 }
        }
        mutex.sync {}  // after: not seen
        #expect(
            recorder.events == [
                "will lock m", "locked m", "unlocked m", "will try m", "locked m", "unlocked m",
                "will lock m", "locked m", "unlocked m", "will try m", "locked m", "unlocked m",
                "will lock ?", "locked ?", "unlocked ?",
            ], "\(recorder.events)")
        #expect(box.withLock { $0 } == 1)
    }

    @Test func aTryLockOfAHeldMutexIsSeenButNotTaken() {
        let mutex = PThreadMutex()
        let recorder = Recorder([ObjectIdentifier(mutex): "m"])
        let took = whileAnotherThreadHolds(mutex) {
            LockObserver.observing(with: recorder) { mutex.trySync { true } ?? false }
        }
        #expect(!took)
        #expect(recorder.events == ["will try m"])
    }

    @Test func anUnobservedMutexIsNeverSeen() {
        let mutex = PThreadMutex(type: .normal, observed: false)
        let box = LockedBox(0, observed: false)
        let recorder = Recorder([:])
        LockObserver.observing(with: recorder) {
            mutex.sync {}
            box.withLock { $0 += 1 }
            #expect(LockObserver.current === recorder)
        }
        #expect(LockObserver.current == nil)
        #expect(recorder.events.isEmpty)
    }

    /// The observed paths still exclude: two threads, each observed, adding under the lock lose no update.
    @Test func observedLocksStillExclude() async {
        let box = LockedBox(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    LockObserver.observing(with: LockObserver()) {
                        for _ in 0..<10_000 { box.withLock { $0 += 1 } }
                    }
                }
            }
        }
        #expect(box.withLock { $0 } == 40_000)
    }
}

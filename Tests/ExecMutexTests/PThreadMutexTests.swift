// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecMutex
import Testing

private struct Failure: Error, Equatable {}

@Suite struct PThreadMutexTests {
    @Test func syncReturnsTheClosureValue() {
        let mutex = PThreadMutex()
        #expect(mutex.sync { 42 } == 42)
    }

    // Guarantees: G-mutex-sync-rethrow-unlocks
    @Test func syncRethrowsAndReleasesTheLock() {
        let mutex = PThreadMutex()
        #expect(throws: Failure.self) { try mutex.sync { throw Failure() } }
        #expect(mutex.trySync { true } == true, "the lock must be free again after a throw")
    }

    // Guarantees: G-mutex-try-fails-when-held
    @Test(arguments: [PThreadMutex.Kind.normal, .recursive, .errorChecking])
    func trySyncReturnsNilWhileAnotherThreadHoldsTheLock(kind: PThreadMutex.Kind) {
        let mutex = PThreadMutex(type: kind)
        whileAnotherThreadHolds(mutex) {
            #expect(mutex.trySync { 1 } == nil)
            #expect(mutex.unbalancedTryLock() == false)
        }
        #expect(mutex.trySync { 1 } == 1)
    }

    // Guarantees: G-mutex-recursive
    @Test func recursiveMutexAllowsNestedSync() {
        let mutex = PThreadMutex(type: .recursive)
        let value = mutex.sync { mutex.sync { mutex.trySync { 7 } } }
        #expect(value == 7)
    }

    // Guarantees: G-mutex-try-fails-when-held
    @Test func unbalancedLockAndUnlockPair() {
        let mutex = PThreadMutex()
        mutex.unbalancedLock()
        let blocked = DispatchQueue.global().sync { mutex.unbalancedTryLock() }
        #expect(blocked == false)
        mutex.unbalancedUnlock()
        #expect(mutex.unbalancedTryLock())
        mutex.unbalancedUnlock()
    }

    @Test func kindIsRemembered() {
        #expect(PThreadMutex().kind == .normal)
        #expect(PThreadMutex(type: .recursive).kind == .recursive)
    }

    // Guarantees: G-thread-safety-any-thread
    @Test func syncExcludesConcurrentWriters() {
        let mutex = PThreadMutex()
        nonisolated(unsafe) var counter = 0
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { mutex.sync { counter += 1 } }
        }
        #expect(mutex.sync { counter } == 80_000)
    }

    #if os(macOS) || os(Linux) || os(Windows)
    // Guarantees: G-mutex-errorchecking-stops, G-mutex-failure-stops
    @Test func errorCheckingMutexStopsInsteadOfDeadlocking() async {
        let exit1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let mutex = PThreadMutex(type: .errorChecking)
            mutex.sync { mutex.sync {} }
        }
        #expect(exit1.standardErrorText.contains("EDEADLK"))
    }
    #endif

    #if os(macOS) || os(Linux) || os(Windows)
    // Guarantees: G-misuse-stops-with-message, G-mutex-failure-stops
    @Test func unlockingAMutexThisThreadDoesNotHoldStops() async {
        let exit2 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            PThreadMutex(type: .errorChecking).unbalancedUnlock()
        }
        #expect(exit2.standardErrorText.contains("EPERM"))
    }
    #endif

    #if os(macOS) || os(Linux) || os(Windows)
    /// `sync`'s own unlock is checked like every other: a block that unlocks the mutex itself stops the program.
    // Guarantees: G-mutex-failure-stops
    @Test func aBlockThatUnlocksTheMutexOfItsSyncStops() async {
        let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let mutex = PThreadMutex(type: .errorChecking)
            mutex.sync { mutex.unbalancedUnlock() }
        }
        #expect(exit.standardErrorText.contains("EPERM"))
    }
    #endif
}

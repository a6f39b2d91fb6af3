// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecMutex
import Testing

private struct Failure: Error, Equatable {}

/// `trySync` rethrows what its block throws and releases the lock either way, on every kind of `PThreadMutex` and
/// through the `ScopedMutex` protocol.
@Suite struct TrySyncRethrowTests {
    /// Whether another thread can take `mutex` at once. (Another thread, because a recursive mutex that was left held
    /// would still let this one in.)
    private static func isFreeForAnotherThread(_ mutex: any ScopedMutex) -> Bool {
        DispatchQueue.global().sync { mutex.trySync { true } } == true
    }

    // Guarantees: G-mutex-trysync-rethrow-unlocks
    @Test(arguments: [PThreadMutex.Kind.normal, .recursive, .errorChecking])
    func trySyncRethrowsAndReleasesTheLock(kind: PThreadMutex.Kind) {
        let mutex = PThreadMutex(type: kind)
        #expect(throws: Failure.self) { try mutex.trySync { () throws -> Int in throw Failure() } }
        #expect(Self.isFreeForAnotherThread(mutex), "the lock must be free again after a throw")
        #expect(mutex.trySync { 4 } == 4)
    }

    // Guarantees: G-mutex-trysync-rethrow-unlocks
    @Test(arguments: [PThreadMutex.Kind.normal, .recursive, .errorChecking])
    func trySyncThroughTheProtocolRethrowsAndReleasesTheLock(kind: PThreadMutex.Kind) {
        let mutex: any ScopedMutex = PThreadMutex(type: kind)
        #expect(throws: Failure.self) { try mutex.trySync { () throws -> Int in throw Failure() } }
        #expect(Self.isFreeForAnotherThread(mutex), "the lock must be free again after a throw")
        #expect(mutex.sync { 5 } == 5)
    }
}

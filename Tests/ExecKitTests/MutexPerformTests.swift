// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

/// *Bridging to Swift Concurrency*: `perform` on a mutex context "goes through `invokeAsync`, so a mutex context does
/// not block the caller's thread while it waits for its lock" (issue #32).
///
/// The caller is a task on a private serial queue, which has one thread at a time to give. The mutex is held by a
/// block on another thread while the task awaits `perform`; a block queued on the caller's queue after the task called
/// `perform` must run while the task waits. A `perform` that took the lock on the caller's thread (a `sync`, or a lock
/// wait) would hold that queue until the mutex is let go, and the queued block could not run.
@Suite struct MutexPerformTests {
    /// Every kind of mutex context: the mutex queue, a `.mutex` queue of the caller's, and the re-entrant mutex, as an
    /// `Exec` and as a plain `MutexContext` (whose `perform` is the protocol's).
    enum Mutex: CaseIterable, CustomStringConvertible {
        case syncQueue, mutexQueue, serializedDirect, mutexContext

        var description: String {
            switch self {
            case .syncQueue: "Exec.syncQueue()"
            case .mutexQueue: ".queue(queue, .mutex)"
            case .serializedDirect: "Exec.direct.serialized()"
            case .mutexContext: "MutexContext()"
            }
        }
    }

    static let rounds = 50

    // Guarantees: G-perform-mutex-no-block
    @Test(arguments: Mutex.allCases)
    func performOnAHeldMutexLeavesTheCallersThreadFree(mutex: Mutex) async {
        for round in 0..<Self.rounds {
            let (hold, perform) = Self.make(mutex)
            let caller = Exec.asyncQueue(label: "test.perform.caller")
            // Hold the mutex from a thread of its own until the test lets go.
            let holding = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            startDetachedThread {
                hold {
                    holding.signal()
                    _ = release.wait(timeout: .now() + 60)  // bounded: a failing run must not hang the suite
                }
            }
            guard waitBlocking(holding, seconds: 10) else {
                Issue.record("round \(round): the mutex was not taken")
                release.signal()
                return
            }
            let aboutToPerform = DispatchSemaphore(value: 0)
            let performed = DispatchSemaphore(value: 0)
            let ranInside = LockedBox(false)
            let task = caller.task {
                aboutToPerform.signal()
                await perform { ranInside.withLock { $0 = true } }
                performed.signal()
            }
            guard waitBlocking(aboutToPerform, seconds: 10) else {
                Issue.record("round \(round): the caller's task did not start")
                release.signal()
                return
            }
            // Queued behind the task's job: it runs once that job has suspended in `perform`, or not until the mutex
            // is let go if `perform` blocks the queue's thread.
            let callerQueueFree = DispatchSemaphore(value: 0)
            caller.invokeAsync { callerQueueFree.signal() }
            let wasFree = waitBlocking(callerQueueFree, seconds: 10)
            let ranWhileHeld = ranInside.withLock { $0 }
            release.signal()
            #expect(wasFree, "round \(round), \(mutex): perform blocked the caller's thread while the mutex was held")
            #expect(!ranWhileHeld, "round \(round), \(mutex): the block ran while another thread held the mutex")
            #expect(waitBlocking(performed, seconds: 10), "round \(round), \(mutex): perform did not return")
            #expect(ranInside.withLock { $0 })
            await task.value
            if !wasFree { return }
        }
    }

    /// A new mutex of kind `mutex`: how to hold it (run a block inside it, on the calling thread), and how to await
    /// `perform` on it.
    private static func make(
        _ mutex: Mutex
    ) -> (
        hold: @Sendable (@escaping @Sendable () -> Void) -> Void,
        perform: @Sendable (@Sendable () -> Void) async -> Void
    ) {
        let context: Exec
        switch mutex {
        case .syncQueue: context = .syncQueue(label: "test.perform.mutex")
        case .mutexQueue: context = .queue(DispatchQueue(label: "test.perform.mutex"), .mutex)
        case .serializedDirect: context = .direct.serialized()
        case .mutexContext:
            let plain = MutexContext()
            return ({ plain.invoke($0) }, { body in await plain.perform(body) })
        }
        return ({ context.invoke($0) }, { body in await context.perform(body) })
    }
}

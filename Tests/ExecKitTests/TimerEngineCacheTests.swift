// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecDispatch
import ExecKit
import ExecTestSupport
import Testing

/// Each thread remembers the timer engine of the private queue it scheduled on last (issue #21: a private queue's
/// schedule+cancel within 5% of `.utility`'s instructions). That memory must never hand a queue another queue's engine:
/// libdispatch reuses a freed queue's address at once (and runs its queue-specific destructors only later), so a cache
/// keyed by the queue's address gave a new queue the freed one's engine, two engines for one queue, and timers from
/// different threads out of deadline order.
@Suite struct TimerEngineCacheTests {
    @Test func aNewQueueAtAFreedQueuesAddressGetsTheEngineAttachedToIt() async {
        // On a thread of its own: the cache is per thread, and the waits must not hold a cooperative-pool thread.
        let (reusedAddresses, mismatches) = await withCheckedContinuation { continuation in
            startDetachedThread { continuation.resume(returning: Self.compareEnginesOnFreshQueues(rounds: 300)) }
        }
        let mismatchCount = mismatches.count
        #expect(mismatchCount == 0, "first: \(mismatches.first ?? "-")")
        // The test means something only if some queue took a freed queue's address, as libdispatch does at once.
        #expect(reusedAddresses > 0, "no queue reused a freed queue's address in 300 rounds")
    }

    /// Makes `rounds` queues one after another, each released before the next; for each, compares the engine this
    /// thread's timers go to with the one a fresh thread (whose cache is empty) finds attached to the queue.
    private static func compareEnginesOnFreshQueues(rounds: Int) -> (reusedAddresses: Int, mismatches: [String]) {
        var addresses = Set<UnsafeRawPointer>()
        var reused = 0
        var mismatches: [String] = []
        for round in 0..<rounds {
            let queue = DispatchQueue(label: "ExecKit.cacheTest")
            if let raw = RawQueueIdentity.queuePointer(of: queue), !addresses.insert(raw).inserted { reused += 1 }
            // This thread: the slow path, which fills its cache, then the cached answer. (No timer is scheduled: a
            // pending or just-cancelled timer's source would keep the queue, and so its address, for a while.)
            _ = Exec.engineIdentityForTests(of: queue, serial: true)
            let here = Exec.engineIdentityForTests(of: queue, serial: true)
            let elsewhere = LockedBox<ObjectIdentifier?>(nil)
            let looked = DispatchSemaphore(value: 0)
            startDetachedThread {
                elsewhere.withLock { $0 = Exec.engineIdentityForTests(of: queue, serial: true) }
                looked.signal()
            }
            if !waitBlocking(looked, seconds: 10) {
                mismatches.append("round \(round): the other thread did not answer")
            } else if here == nil || here != elsewhere.withLock({ $0 }) {
                mismatches.append("round \(round): this thread's engine is not the one attached to the queue")
            }
        }
        return (reused, mismatches)
    }

    @Test func timersOnTwoQueuesInTurnFireEachOnItsOwnQueue() async {
        let first = Exec.asyncQueue(label: "first")
        let second = Exec.asyncQueue(label: "second")
        let misplaced = LockedBox(0)
        let fired = LockedBox(0)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            for round in 0..<200 {
                let context = round % 2 == 0 ? first : second
                context.invoke(after: .zero) {
                    if !context.isCurrent { misplaced.withLock { $0 += 1 } }
                    if fired.withLock({ count in
                        count += 1
                        return count
                    }) == 200 {
                        continuation.resume()
                    }
                }
            }
        }
        #expect(misplaced.withLock { $0 } == 0)
    }
}

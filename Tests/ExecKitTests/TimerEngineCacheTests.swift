// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecDispatch
import ExecKit
import ExecTestSupport
import Testing

/// Each thread remembers the timer engine of the private queue it scheduled on last (issue #21: a private queue's
/// schedule+cancel within 5% of `.utility`'s instructions). A queue deallocated and a new one allocated at the same
/// address must get an engine of its own: the old one is detached while its queue is deallocated.
@Suite struct TimerEngineCacheTests {
    @Test func aNewQueueAtAFreedQueuesAddressGetsItsOwnEngine() async {
        // On a thread of its own: every round schedules from one thread (the cache is per thread), and its waits do
        // not hold a thread of the small cooperative pool that the other tests need.
        let (reused, failures) = await withCheckedContinuation { continuation in
            startDetachedThread { continuation.resume(returning: Self.scheduleOnFreshQueues(rounds: 300)) }
        }
        #expect(failures.isEmpty, "\(failures)")
        // The test means something only if some queue reused a freed one's address (glibc hands freed chunks back).
        #expect(reused > 0, "no queue reused a freed queue's address in 300 rounds")
    }

    /// Makes `rounds` queues one after another, each released before the next, and fires a timer on each; returns
    /// how many queues reused an earlier one's address, and what went wrong.
    private static func scheduleOnFreshQueues(rounds: Int) -> (reused: Int, failures: [String]) {
        var addresses = Set<UnsafeRawPointer>()
        var reused = 0
        var failures: [String] = []
        for round in 0..<rounds {
            let queue = DispatchQueue(label: "ExecKit.cacheTest.\(round % 2)")
            let context = Exec.queue(queue, .serialAsync)
            if let raw = RawQueueIdentity.queuePointer(of: queue), !addresses.insert(raw).inserted { reused += 1 }
            let fired = DispatchSemaphore(value: 0)
            let inOwnQueue = LockedBox(false)
            let timer = context.singleTimer(interval: .zero) {
                inOwnQueue.withLock { $0 = context.isCurrent }
                fired.signal()
            }
            if !waitBlocking(fired, seconds: 10) { failures.append("round \(round): the timer did not fire") }
            if !inOwnQueue.withLock({ $0 }) { failures.append("round \(round): the timer fired outside its queue") }
            withExtendedLifetime(timer) {}
        }
        return (reused, failures)
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

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
    @Test func aNewQueueAtAFreedQueuesAddressGetsItsOwnEngine() {
        var addresses = Set<UnsafeRawPointer>()
        var reused = 0
        for round in 0..<300 {
            let queue = DispatchQueue(label: "ExecKit.cacheTest.\(round % 2)")
            let context = Exec.queue(queue, .serialAsync)
            if let raw = RawQueueIdentity.queuePointer(of: queue), !addresses.insert(raw).inserted { reused += 1 }
            let fired = DispatchSemaphore(value: 0)
            let inOwnQueue = LockedBox(false)
            let timer = context.singleTimer(interval: .zero) {
                inOwnQueue.withLock { $0 = context.isCurrent }
                fired.signal()
            }
            #expect(waitBlocking(fired, seconds: 10), "round \(round): the timer did not fire")
            #expect(inOwnQueue.withLock { $0 }, "round \(round): the timer fired outside its queue")
            withExtendedLifetime(timer) {}
        }
        // The test means something only if some queue reused a freed one's address (glibc hands freed chunks back).
        #expect(reused > 0, "no queue reused a freed queue's address in 300 rounds")
    }

    @Test func timersOnTwoQueuesInTurnFireEachOnItsOwnQueue() {
        let first = Exec.asyncQueue(label: "first")
        let second = Exec.asyncQueue(label: "second")
        let done = DispatchSemaphore(value: 0)
        let misplaced = LockedBox(0)
        for round in 0..<200 {
            let context = round % 2 == 0 ? first : second
            context.invoke(after: .zero) {
                if !context.isCurrent { misplaced.withLock { $0 += 1 } }
                done.signal()
            }
        }
        for _ in 0..<200 { #expect(waitBlocking(done, seconds: 10)) }
        #expect(misplaced.withLock { $0 } == 0)
    }
}

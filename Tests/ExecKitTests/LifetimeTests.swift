// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Synchronization
import Testing

@Suite struct LifetimeTests {
    // Guarantees: G-lifetime-callback-once
    @Test func callbackLifetimeRunsOnceOnCancel() {
        let calls = Atomic(0)
        let lifetime = CallbackLifetime { calls.add(1, ordering: .relaxed) }
        #expect(!lifetime.isCancelled)
        lifetime.cancel()
        lifetime.cancel()
        #expect(lifetime.isCancelled)
        #expect(calls.load(ordering: .relaxed) == 1)
    }

    // Guarantees: G-lifetime-callback-once
    @Test func callbackLifetimeRunsOnRelease() {
        let calls = Atomic(0)
        do { _ = CallbackLifetime { calls.add(1, ordering: .relaxed) } }
        #expect(calls.load(ordering: .relaxed) == 1)
    }

    // Guarantees: G-lifetime-callback-once
    @Test func concurrentCancelsRunTheCallbackOnce() {
        let calls = Atomic(0)
        let lifetime = CallbackLifetime { calls.add(1, ordering: .relaxed) }
        DispatchQueue.concurrentPerform(iterations: 16) { _ in lifetime.cancel() }
        #expect(calls.load(ordering: .relaxed) == 1)
    }

    // Guarantees: G-lifetime-aggregate
    @Test func aggregateCancelsChildrenInOrder() {
        let order = Recorder<Int>()
        let aggregate = AggregateLifetime()
        for index in 0..<3 { aggregate.add(CallbackLifetime { order.record(index) }) }
        #expect(aggregate.count == 3)
        #expect(!aggregate.isCancelled)
        aggregate.cancel()
        #expect(order.recorded == [0, 1, 2])
        #expect(aggregate.isCancelled)
        aggregate.cancel()
        #expect(order.recorded == [0, 1, 2], "cancel is idempotent")
    }

    @Test func aggregateCancelsLateAdditionsAtOnce() {
        let aggregate = AggregateLifetime()
        aggregate.cancel()
        let late = CallbackLifetime {}
        aggregate.add(late)
        #expect(late.isCancelled)
    }

    // Guarantees: G-lifetime-handle
    @Test func releasingAnAggregateCancelsItsChildren() {
        let child = CallbackLifetime {}
        do {
            let aggregate = AggregateLifetime()
            aggregate.add(child)
        }
        #expect(child.isCancelled)
    }

    @Test func aggregateEndsTimers() {
        let fired = Recorder<Bool>()
        let scheduled = ContinuousClock.now
        let aggregate = AggregateLifetime()
        aggregate.add(Exec.utility.singleTimer(interval: .milliseconds(10)) { fired.record(true) })
        aggregate.add(Exec.utility.periodicTimer(interval: .milliseconds(5)) { fired.record(true) })
        aggregate.cancel()
        let cancelled = ContinuousClock.now - scheduled
        // A firing is a failure unless a deadline passed before cancel() returned (this thread descheduled meanwhile):
        // on a global queue a firing already taken may then still run.
        #expect(fired.wait(timeout: 0.1) == false || cancelled >= .milliseconds(5))
    }

    // Guarantees: G-lifetime-aggregate-child-reentry
    @Test func childMayTouchTheAggregateWhileBeingCancelled() {
        let aggregate = AggregateLifetime()
        let observed = Recorder<Bool>()
        aggregate.add(CallbackLifetime { [unowned aggregate] in observed.record(aggregate.isCancelled) })
        aggregate.cancel()
        #expect(observed.recorded == [true])
    }

    /// A second `cancel()` must not return before every child was cancelled, even while the first is still busy.
    // Guarantees: G-lifetime-aggregate-concurrent-cancel
    @Test func everyCancelCancelsEveryChildBeforeReturning() {
        let firstChildEntered = DispatchSemaphore(value: 0)
        let releaseFirstChild = DispatchSemaphore(value: 0)
        let blocking = CountingLifetime { calls in
            if calls == 1 {
                firstChildEntered.signal()
                releaseFirstChild.wait()
            }
        }
        let second = CountingLifetime { _ in }
        let aggregate = AggregateLifetime()
        aggregate.add(blocking)
        aggregate.add(second)
        let firstCancelReturned = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            aggregate.cancel()
            firstCancelReturned.signal()
        }
        firstChildEntered.wait()  // the first cancel is stuck inside the first child
        aggregate.cancel()
        #expect(second.calls >= 1, "the second cancel returned with a child still running")
        releaseFirstChild.signal()
        firstCancelReturned.wait()
    }
}

/// A lifetime that counts its cancellations and runs `onCancel` with the count.
final class CountingLifetime: Lifetime {
    private let count = LockedBox(0)
    private let onCancel: @Sendable (Int) -> Void

    init(onCancel: @escaping @Sendable (Int) -> Void) { self.onCancel = onCancel }

    var calls: Int { count.withLock { $0 } }

    func cancel() {
        let calls = count.withLock { count in
            count += 1
            return count
        }
        onCancel(calls)
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Synchronization
import Testing

@Suite struct LifetimeTests {
    @Test func callbackLifetimeRunsOnceOnCancel() {
        let calls = Atomic(0)
        let lifetime = CallbackLifetime { calls.add(1, ordering: .relaxed) }
        #expect(!lifetime.isCancelled)
        lifetime.cancel()
        lifetime.cancel()
        #expect(lifetime.isCancelled)
        #expect(calls.load(ordering: .relaxed) == 1)
    }

    @Test func callbackLifetimeRunsOnRelease() {
        let calls = Atomic(0)
        do { _ = CallbackLifetime { calls.add(1, ordering: .relaxed) } }
        #expect(calls.load(ordering: .relaxed) == 1)
    }

    @Test func concurrentCancelsRunTheCallbackOnce() {
        let calls = Atomic(0)
        let lifetime = CallbackLifetime { calls.add(1, ordering: .relaxed) }
        DispatchQueue.concurrentPerform(iterations: 16) { _ in lifetime.cancel() }
        #expect(calls.load(ordering: .relaxed) == 1)
    }

    @Test func aggregateCancelsChildrenInOrder() {
        let order = Recorder<Int>()
        let aggregate = AggregateLifetime()
        for index in 0..<3 { aggregate.add(CallbackLifetime { order.record(index) }) }
        #expect(aggregate.count == 3)
        aggregate.cancel()
        #expect(order.recorded == [0, 1, 2])
        #expect(aggregate.count == 0)
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
        let aggregate = AggregateLifetime()
        aggregate.add(Exec.utility.singleTimer(interval: .milliseconds(10)) { fired.record(true) })
        aggregate.add(Exec.utility.periodicTimer(interval: .milliseconds(5)) { fired.record(true) })
        aggregate.cancel()
        #expect(fired.wait(timeout: 0.1) == false)
    }

    @Test func childMayTouchTheAggregateWhileBeingCancelled() {
        let aggregate = AggregateLifetime()
        let observedCount = Recorder<Int>()
        aggregate.add(CallbackLifetime { [unowned aggregate] in observedCount.record(aggregate.count) })
        aggregate.cancel()
        #expect(observedCount.recorded == [0])
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecKit
import ExecMutex
import Testing

/// `DispatchWorkloop` (Apple platforms) is a `DispatchQueue` whose `dispatch_sync` crashes inside libdispatch, so
/// ExecKit waits on one with `dispatch_async_and_wait` (issue #22, item 9). Linux has no workloops: the tests here run
/// the workloop's wait on a private serial queue, which accepts it too, and check it keeps every promise `sync` keeps
/// (the block's value, order after earlier blocks, the entered-queue record). The tests that use a real workloop
/// compile on Apple platforms only.
@Suite struct WorkloopWaitTests {
    @Test func everyQueueOnLinuxIsWaitedOnWithSync() {
        #if !canImport(Darwin)
        #expect(QueueWait.accepted(by: DispatchQueue(label: "serial")) == .sync)
        #expect(QueueWait.accepted(by: DispatchQueue.global()) == .sync)
        #endif
    }

    // Guarantees: G-queue-workloop
    @Test func theWorkloopsWaitRunsTheBlockOnTheQueueAfterEarlierBlocks() {
        let queue = DispatchQueue(label: "ExecKit.workloopWait")
        let order = LockedBox<[String]>([])
        queue.async { order.withLock { $0.append("earlier") } }
        var ranInside = false
        SerialQueueEntry(queue).sync(waitingWith: .asyncAndWait) {
            ranInside = Exec.queue(queue, .mutex).isCurrent
            order.withLock { $0.append("waited") }
        }
        #expect(ranInside)
        #expect(order.withLock { $0 } == ["earlier", "waited"])
    }

    @Test func theWorkloopsWaitLeavesTheRecordThatReentryReads() {
        // Inside the waited block, a `sync` on another queue and then an invokeSync back onto the first runs inline
        // (the record says the caller is inside), where waiting would deadlock.
        let queue = DispatchQueue(label: "ExecKit.workloopWait.outer")
        let other = DispatchQueue(label: "ExecKit.workloopWait.other")
        var ranInline = false
        SerialQueueEntry(queue).sync(waitingWith: .asyncAndWait) {
            other.sync {
                ranInline = Exec.queue(queue, .serialAsync).invokeSync { true }
            }
        }
        #expect(ranInline)
    }

    #if canImport(Darwin)
    @Test func aWorkloopIsWaitedOnWithAsyncAndWait() {
        #expect(QueueWait.accepted(by: DispatchWorkloop(label: "ExecKit.workloop")) == .asyncAndWait)
        #expect(QueueWait.accepted(by: DispatchQueue(label: "serial")) == .sync)
    }

    // Guarantees: G-queue-workloop
    @Test(arguments: [ExecutionType.mutex, .immediate, .serialAsync, .conditionallyAsync, .concurrentAsync])
    func invokeSyncOnAWorkloopReturnsTheBlocksValue(type: ExecutionType) {
        let workloop = DispatchWorkloop(label: "ExecKit.workloop")
        let context = Exec.queue(workloop, type)
        #expect(context.invokeSync { 42 } == 42)
        let ran = LockedBox(false)
        context.invoke { ran.withLock { $0 = true } }
        if type == .mutex || type == .immediate { #expect(ran.withLock { $0 }) }
    }
    #endif
}

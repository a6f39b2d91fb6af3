// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Testing

@Suite struct ExecQueueTests {
    // Guarantees: G-queue-sync-mutex
    @Test func syncQueueWaitsAndRunsOnItsQueue() {
        let context = Exec.syncQueue()
        guard case .queue(let queue, .mutex) = context else {
            Issue.record("syncQueue must be a queue used as a mutex")
            return
        }
        let onQueue = LockedBox(false)
        context.invoke { onQueue.withLock { $0 = queue.isCurrent } }
        #expect(onQueue.withLock { $0 }, "invoke must have run the block on the queue before returning")
        #expect(context.type == .mutex)
        #expect(context.invokeSync { queue.isCurrent })
    }

    // Guarantees: G-queue-sync-mutex
    @Test func syncQueueExcludesConcurrentCallers() {
        let context = Exec.syncQueue()
        nonisolated(unsafe) var counter = 0
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<2_000 { context.invoke { counter += 1 } }
        }
        #expect(context.invokeSync { counter } == 8_000)
    }

    #if os(macOS) || os(Linux) || os(Windows)
    // Guarantees: G-misuse-stops-with-message
    @Test func syncQueueInvokedFromInsideItselfStopsWithAMessage() async {
        let exit1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let context = Exec.syncQueue()
            context.invoke { context.invoke {} }
        }
        #expect(exit1.standardErrorText.contains("was invoked from inside that same queue"))
        let exit2 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let context = Exec.syncQueue()
            context.invoke { _ = context.invokeSync { 1 } }
        }
        #expect(exit2.standardErrorText.contains("was invoked from inside that same queue"))
    }
    #endif

    // Guarantees: G-serial-fifo-one-at-a-time, G-queue-async-serial
    @Test func asyncQueueRunsInFIFOOrderAfterReturning() {
        let context = Exec.asyncQueue()
        let gate = DispatchSemaphore(value: 0)
        let order = Recorder<Int>()
        context.invoke { _ = gate.wait(timeout: .now() + 10) }  // bounded: run inline by mistake, it must not hang
        for value in 0..<100 { context.invoke { order.record(value) } }
        #expect(order.recorded.isEmpty, "blocks must wait behind the gate: invoke is asynchronous")
        gate.signal()
        #expect(order.wait(for: 100))
        #expect(order.recorded == Array(0..<100))
        #expect(context.type == .serialAsync)
    }

    // Guarantees: G-serial-fifo-one-at-a-time, G-queue-async-serial
    @Test func asyncQueueNeverRunsTwoBlocksAtOnce() {
        let result = runsSeriallyInOrder(.asyncQueue(), count: 200)
        #expect(result.allRan && result.inOrder)
        #expect(!result.overlapped)
    }

    /// The check above must be able to fail: a concurrent context is caught overlapping. A few rounds, because on a
    /// saturated 2-core machine one round of a concurrent queue may happen to run one block at a time.
    @Test func theOverlapCheckCatchesAConcurrentContext() {
        var caught = false
        for _ in 0..<10 where !caught {
            let result = runsSeriallyInOrder(.utility, count: 200)
            #expect(result.allRan)
            caught = result.overlapped
        }
        #expect(caught)
    }

    // Guarantees: G-invokesync-inline-inside
    @Test func invokeSyncFromInsideAnAsyncQueueRunsInline() {
        let context = Exec.asyncQueue()
        let value = context.invokeSync { context.invokeSync { 3 } }
        #expect(value == 3)
    }

    @Test func invokeSyncOnAsynchronousContextsReturnsAndRethrows() {
        for context in [Exec.asyncQueue(), .utility, .background, .default, .user, .interactive] {
            #expect(context.invokeSync { 9 } == 9)
            #expect(throws: TestError.self) { try context.invokeSync { throw TestError() } }
        }
    }

    // Guarantees: G-queue-conditional-inline-inside, G-exec-type-current-caller, G-queue-given-type
    @Test func conditionallyAsyncQueueIsImmediateOnlyInside() {
        let queue = DispatchQueue(label: "conditional")
        let context = Exec.queue(queue, .conditionallyAsync(true))
        #expect(context.type == .conditionallyAsync(true))
        let nested = queue.sync { () -> Bool in
            let ran = Flag()
            context.invoke { ran.set() }
            return ran.isSet && context.type == .conditionallyAsync(false)
        }
        #expect(nested)
        let later = Recorder<Bool>()
        context.invoke { later.record(queue.isCurrent) }
        #expect(later.wait())
        #expect(later.recorded == [true])
    }

    // Guarantees: G-queue-given-type
    @Test func concurrentQueueCaseUsesTheQueue() {
        let queue = DispatchQueue(label: "concurrent", attributes: .concurrent)
        let context = Exec.queue(queue, .concurrentAsync)
        let ran = Recorder<Bool>()
        context.invoke { ran.record(queue.isCurrent) }
        #expect(ran.wait())
        #expect(ran.recorded == [true])
        #expect(Exec.queue(queue, .immediate).invokeSync { queue.isCurrent })
    }

    // Guarantees: G-invokeasync-never-inline
    @Test func invokeAsyncNeverRunsBeforeReturning() {
        let contexts: [Exec] = [
            .direct, .syncQueue(), .asyncQueue(), .utility, .direct.serialized(), .custom(CountingImmediateContext()),
            .queue(DispatchQueue(label: "c"), .conditionallyAsync(false)),
        ]
        for context in contexts {
            #expect(runsOnlyAfterReturning { context.invokeAsync($0) }, "\(context) ran invokeAsync's block inline")
        }
    }

    /// The global-queue cases run asynchronously on the queue of matching QoS.
    // Guarantees: G-queue-global-concurrent
    @Test(arguments: [
        (Exec.interactive, DispatchQoS.QoSClass.userInteractive), (.user, .userInitiated), (.default, .default),
        (.utility, .utility), (.background, .background),
    ])
    func qosCasesRunOnTheMatchingGlobalQueue(context: Exec, qos: DispatchQoS.QoSClass) {
        #expect(context.type == .concurrentAsync)
        #if os(Linux)
        DispatchQueue.global(qos: qos).setSpecific(key: globalQueueMarkers[qos]!, value: true)
        #endif
        let ran = Recorder<Bool>()
        let gate = DispatchSemaphore(value: 0)
        context.invoke {
            _ = gate.wait(timeout: .now() + 10)  // bounded: run inline by mistake, it must not hang the suite
            #if os(Linux)
            // Linux's libdispatch lets a global queue carry a queue-specific value, so the test marks it itself
            // (DispatchQueue.isCurrent answers `false` for global queues: every queue targets one).
            ran.record(DispatchQueue.getSpecific(key: globalQueueMarkers[qos]!) == true)
            #else
            ran.record(true)
            #endif
        }
        #expect(ran.recorded.isEmpty, "must be asynchronous")
        gate.signal()
        #expect(ran.wait())
        #expect(ran.recorded == [true])
    }
}

/// The keys under which `qosCasesRunOnTheMatchingGlobalQueue` marks each global queue, one per QoS: the cases run in
/// parallel, and two QoS classes may share one global queue.
private let globalQueueMarkers: [DispatchQoS.QoSClass: DispatchSpecificKey<Bool>] = [
    .userInteractive: .init(), .userInitiated: .init(), .default: .init(), .utility: .init(), .background: .init(),
]

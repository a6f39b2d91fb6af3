// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

/// `MutexContext.invokeAsync` (what `Exec.direct.serialized()` gives) starts the blocks submitted from one thread in
/// the order they were submitted; the mutex `serialized()` puts around an immediate custom context hands its blocks to
/// that context's `invokeAsync` and runs them in the order that context does.
@Suite struct MutexContextInvokeAsyncOrderTests {
    // Guarantees: G-mutexcontext-invokeasync-fifo
    @Test func blocksSubmittedFromOneThreadRunInSubmissionOrder() async {
        // Big enough that blocks handed to a concurrent queue instead would overtake each other, even on two cores.
        let count = isThreadSanitizerActive ? 500 : 2_000
        for round in 0..<5 {
            let ran = await Self.runOrder(of: count, on: Exec.direct.serialized())
            #expect(ran?.count == count, "round \(round): not every block ran")
            let firstOutOfOrder = ran.flatMap { ran in ran.indices.first { ran[$0] != $0 } }
            #expect(firstOutOfOrder == nil, "round \(round): block \(firstOutOfOrder ?? -1) started out of order")
        }
    }

    /// Submits `count` blocks to `context` with `invokeAsync`, all from this thread (in one synchronous loop), and
    /// returns the order they started in; `nil` if they did not all run within a generous bound.
    ///
    /// Asynchronous on purpose: the test's thread waits suspended, not blocked, so it holds no thread that the global
    /// queues could otherwise use (a blocked one leaves a single worker on a two-core machine, and a bug that started
    /// blocks concurrently would then go unseen).
    private static func runOrder(of count: Int, on context: Exec) async -> [Int]? {
        await withCheckedContinuation { continuation in
            let pending = LockedBox<CheckedContinuation<[Int]?, Never>?>(continuation)
            let finish: @Sendable ([Int]?) -> Void = { order in
                pending.withLock { pending in
                    defer { pending = nil }
                    return pending
                }?.resume(returning: order)
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + 60) { finish(nil) }
            let order = LockedBox<[Int]>([])
            for index in 0..<count {
                context.invokeAsync {
                    let started = order.withLock { order in
                        order.append(index)
                        return order.count
                    }
                    // Stays in the context for 2 µs, so that blocks started concurrently (the bug this guards
                    // against) would queue up for the lock and take it in no particular order. A spin, not
                    // `sched_yield`: on a loaded machine each yield can give a whole time slice away, and 2,000
                    // blocks then outlast the bound below (a CI run did).
                    let spinUntil = DispatchTime.now().uptimeNanoseconds + 2_000
                    while DispatchTime.now().uptimeNanoseconds < spinUntil {}
                    if started == count { finish(order.withLock { $0 }) }
                }
            }
        }
    }

    /// An immediate context of the user's whose `invokeAsync` keeps blocks until the test runs them, last first.
    final class HoldingImmediateContext: ExecutionContext {
        private let held = LockedBox<[@Sendable () -> Void]>([])

        var type: ExecutionType { .immediate }
        func invoke(_ execute: @escaping @Sendable () -> Void) { execute() }
        func invokeAsync(_ execute: @escaping @Sendable () -> Void) { held.withLock { $0.append(execute) } }
        func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { execute() }

        var heldCount: Int { held.withLock { $0.count } }

        /// Runs the held blocks on the calling thread in the reverse of the order they arrived in.
        func runHeldLastFirst() {
            let blocks = held.withLock { held in
                defer { held.removeAll() }
                return held
            }
            for block in blocks.reversed() { block() }
        }
    }

    // Guarantees: G-mutexcontext-invokeasync-fifo
    @Test func aSerializedImmediateCustomContextRunsBlocksInItsOwnOrder() {
        let wrapped = HoldingImmediateContext()
        let serial = Exec.custom(wrapped).serialized()
        let order = LockedBox<[Int]>([])
        let insideSerial = LockedBox<[Bool]>([])
        for index in 0..<5 {
            serial.invokeAsync {
                order.withLock { $0.append(index) }
                insideSerial.withLock { $0.append(serial.isCurrent) }
            }
        }
        #expect(order.withLock { $0 }.isEmpty, "invokeAsync must leave the blocks to the wrapped context")
        #expect(wrapped.heldCount == 5, "each block must go through the wrapped context's invokeAsync")
        wrapped.runHeldLastFirst()
        #expect(order.withLock { $0 } == [4, 3, 2, 1, 0], "the blocks must run in the wrapped context's order")
        #expect(insideSerial.withLock { $0 } == Array(repeating: true, count: 5), "each block runs under the mutex")
    }
}

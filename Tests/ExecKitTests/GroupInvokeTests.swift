// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Synchronization
import Testing

/// `invokeAsync(group:)` and `invoke(group:)`: the group is entered before the block is scheduled and left after it
/// ran, on every kind of context, so `wait` and `notify` join several callbacks.
@Suite struct GroupInvokeTests {
    static let contexts: [Exec] = [
        .direct, .utility, .asyncQueue(), .syncQueue(), .direct.serialized(), .custom(MinimalSerialContext()),
        .custom(CountingImmediateContext()),
    ]

    /// The blocks hold back until the test has seen the wait time out, so the wait cannot succeed early by luck.
    // Guarantees: G-custom-group-invoke
    @Test func waitSucceedsOnlyOnceEveryBlockRanOnSeveralContexts() {
        let group = DispatchGroup()
        let gate = DispatchSemaphore(value: 0)
        let ran = Atomic(0)
        let asynchronous: [Exec] = [.utility, .asyncQueue(), .custom(MinimalSerialContext()), .direct, .syncQueue()]
        for context in asynchronous {
            for _ in 0..<4 {
                context.invokeAsync(group: group) {
                    gate.wait()
                    ran.add(1, ordering: .relaxed)
                }
            }
        }
        let blocks = asynchronous.count * 4
        #expect(group.wait(timeout: .now() + .milliseconds(50)) == .timedOut, "no block may have finished yet")
        for _ in 0..<blocks { gate.signal() }
        #expect(group.wait(timeout: .now() + 10) == .success)
        #expect(ran.load(ordering: .relaxed) == blocks)
    }

    // Guarantees: G-invokeasync-never-inline
    @Test(arguments: contexts)
    func invokeAsyncNeverRunsBeforeReturning(context: Exec) {
        let group = DispatchGroup()
        #expect(runsOnlyAfterReturning { block in context.invokeAsync(group: group, block) })
        #expect(group.wait(timeout: .now() + 10) == .success)
    }

    // Guarantees: G-custom-group-invoke
    @Test(arguments: contexts)
    func invokeJoinsTheGroupTheWayInvokeRuns(context: Exec) {
        let group = DispatchGroup()
        let ran = Atomic(0)
        for _ in 0..<10 { context.invoke(group: group) { ran.add(1, ordering: .relaxed) } }
        if context.type.isImmediate {
            #expect(ran.load(ordering: .relaxed) == 10, "an immediate context has run every block already")
            #expect(group.wait(timeout: .now()) == .success, "and left the group again")
        }
        #expect(group.wait(timeout: .now() + 10) == .success)
        #expect(ran.load(ordering: .relaxed) == 10)
    }

    /// `notify` runs once, after every block, in the context it is given.
    @Test func notifyRunsOnceAfterEveryBlock() async {
        let group = DispatchGroup()
        let ran = Atomic(0)
        for context in [Exec.utility, .asyncQueue(), .mainAsync] {
            for _ in 0..<5 { context.invokeAsync(group: group) { ran.add(1, ordering: .relaxed) } }
        }
        let seen = await withCheckedContinuation { continuation in
            group.notify(queue: .main) {
                continuation.resume(returning: (ran.load(ordering: .relaxed), DispatchQueue.isMainQueueCurrent))
            }
        }
        #expect(seen.0 == 15)
        #expect(seen.1)
    }

    /// A `.main` block joins a group too: the group is left on the main queue, after the block.
    @Test func mainBlocksLeaveTheGroupAfterRunning() async {
        let group = DispatchGroup()
        let onMain = Recorder<Bool>()
        Exec.main.invokeAsync(group: group) { onMain.record(DispatchQueue.isMainQueueCurrent) }
        Exec.main.invoke(group: group) { onMain.record(DispatchQueue.isMainQueueCurrent) }
        await withCheckedContinuation { continuation in group.notify(queue: .global()) { continuation.resume() } }
        #expect(onMain.recorded == [true, true])
    }
}

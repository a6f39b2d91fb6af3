// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Synchronization
import Testing

@Suite struct ExecCustomContextTests {
    // Guarantees: G-custom-as-implemented
    @Test func customForwardsEveryCall() {
        let counting = CountingImmediateContext()
        let context = Exec.custom(counting)
        let ran = Recorder<Int>()
        context.invoke { ran.record(1) }
        context.invokeAndWait { ran.record(2) }
        #expect(context.invokeSync { 3 } == 3)
        context.invokeAsync { ran.record(4) }
        #expect(ran.wait(for: 3))
        #expect(counting.invocations.load(ordering: .relaxed) == 4)
        #expect(context.type == .immediate)
        if case .custom(let wrapped) = context {
            #expect(wrapped as? CountingImmediateContext === counting, "the seed's pattern match must still work")
        } else {
            Issue.record("expected .custom")
        }
    }

    /// A context that implements only the four seed requirements gets invokeSync, timers and timestamp for free.
    // Guarantees: G-custom-invokesync-default, G-custom-timer-through-invoke
    @Test func minimalContextGetsTheDefaults() {
        let context = MinimalSerialContext()
        #expect(context.invokeSync { context.queue.isCurrent })
        #expect(throws: TestError.self) { try context.invokeSync { throw TestError() } }
        #expect(context.timestamp() <= DispatchTime.now())

        let fired = Recorder<Bool>()
        let single = context.singleTimer(interval: .milliseconds(1)) { fired.record(context.queue.isCurrent) }
        let tagged = context.singleTimer(parameter: 7, interval: .milliseconds(1)) { _ in fired.record(true) }
        #expect(fired.wait(for: 2))
        #expect(fired.recorded == [true, true])
        withExtendedLifetime((single, tagged)) {}

        let ticks = Recorder<Int>()
        let periodic = context.periodicTimer(parameter: 5, interval: .milliseconds(1)) { value in ticks.record(value) }
        #expect(ticks.wait(for: 3))
        periodic.cancel()
        #expect(ticks.recorded.prefix(3) == [5, 5, 5])
    }

    // Guarantees: G-serialized-makes-serial, G-serialized-custom
    @Test func serializedMakesAConcurrentCustomContextSerialAndOrdered() {
        let context = Exec.custom(ConcurrentTestContext()).serialized()
        #expect(context.type == .serialAsync)
        let result = runsSeriallyInOrder(context, count: 300)
        #expect(result.allRan && result.inOrder)
        #expect(!result.overlapped)
        #expect(context.invokeSync { context.invokeSync { 2 } } == 2, "a nested wait runs inline")
    }

    // Guarantees: G-serialized-custom
    @Test func serializedGivesTheThreadBackBetweenBatches() {
        let wrapped = SubmissionCountingContext()
        let context = Exec.custom(wrapped).serialized()
        let done = DispatchSemaphore(value: 0)
        @Sendable func chain(_ remaining: Int) {
            guard remaining > 0 else {
                done.signal()
                return
            }
            context.invoke { chain(remaining - 1) }
        }
        chain(100)
        #expect(done.wait(timeout: .now() + 10) == .success)
        // Each block is queued while the one before it runs: a drain that kept its thread would submit once in all.
        #expect(wrapped.submissions.load(ordering: .relaxed) == 100)
    }

    // Guarantees: G-serialized-makes-serial, G-serialized-custom
    @Test func serializedImmediateCustomContextIsAMutex() {
        let context = Exec.custom(CountingImmediateContext()).serialized()
        #expect(context.type == .mutex)
        nonisolated(unsafe) var counter = 0
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<2_000 { context.invoke { counter += 1 } }
        }
        #expect(context.invokeSync { counter } == 8_000)
    }

    // Guarantees: G-serialized-makes-serial, G-mutexcontext-runs-before-return
    @Test func serializedDirectIsAMutexContext() {
        let context = Exec.direct.serialized()
        #expect(context.type == .mutex)
        guard case .custom(let wrapped) = context, wrapped is MutexContext else {
            Issue.record("expected a MutexContext")
            return
        }
        nonisolated(unsafe) var counter = 0
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<2_000 { context.invoke { counter += 1 } }
        }
        #expect(context.invokeSync { counter } == 8_000)
        let ranAsync = Recorder<Int>()
        context.invokeAsync { ranAsync.record(counter) }
        #expect(ranAsync.wait())
    }

    // Guarantees: G-serialized-immediate-reentrant
    @Test func aMutexContextReentersOnTheSameThreadAndExcludesOtherThreads() {
        // CwlUtils' serialized direct context re-entered; CwlSignal's debounce delivers into the same context from
        // inside it.
        let context = Exec.direct.serialized()
        let log = LockedBox<[String]>([])
        context.invokeSync {
            context.invoke { log.withLock { $0.append("nested invoke") } }
            DispatchQueue(label: "other").sync {
                context.invokeSync { log.withLock { $0.append("nested through another queue's sync") } }
            }
            #expect(context.isCurrent, "still inside after the nested calls returned")
        }
        #expect(log.withLock { $0 } == ["nested invoke", "nested through another queue's sync"])
        #expect(!context.isCurrent)
        // Other threads still take turns: no increment is lost.
        nonisolated(unsafe) var counter = 0
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<10_000 { context.invoke { context.invoke { counter += 1 } } }
        }
        #expect(counter == 40_000)
    }

    // Guarantees: G-serialized-immediate-reentrant, G-serialized-custom
    @Test func aSerializedImmediateCustomContextReentersThroughAnotherQueue() {
        let context = Exec.custom(CountingImmediateContext()).serialized()
        let ran = context.invokeSync { DispatchQueue(label: "other").sync { context.invokeSync { true } } }
        #expect(ran)
    }

    // Guarantees: G-serialized-global-serial-queue
    @Test func serializedOfGlobalAndConcurrentQueuesIsASerialQueue() {
        for context in [Exec.utility, .queue(DispatchQueue(label: "c", attributes: .concurrent), .concurrentAsync)] {
            let serial = context.serialized()
            #expect(serial.type == .serialAsync)
            let order = Recorder<Int>()
            for value in 0..<50 { serial.invoke { order.record(value) } }
            #expect(order.wait(for: 50))
            #expect(order.recorded == Array(0..<50))
        }
        let immediate = Exec.queue(DispatchQueue(label: "i", attributes: .concurrent), .immediate).serialized()
        #expect(immediate.type == .mutex)
    }

    // Guarantees: G-serialized-keeps-serial
    @Test func serializedKeepsSerialContexts() {
        let serialQueue = DispatchQueue(label: "s")
        guard case .queue(let queue, .serialAsync) = Exec.queue(serialQueue, .serialAsync).serialized() else {
            Issue.record("expected the same queue")
            return
        }
        #expect(queue === serialQueue)
        if case .main = Exec.main.serialized() {} else { Issue.record(".main is already serial") }
        let minimal = Exec.custom(MinimalSerialContext())
        if case .custom(let wrapped) = minimal.serialized() {
            #expect(wrapped is MinimalSerialContext)
        } else {
            Issue.record("expected the same custom context")
        }
    }

    // Guarantees: G-alwaysasync-same-place
    @Test func alwaysAsyncIsNeverImmediate() {
        let contexts: [Exec] = [
            .direct, .main, .mainOrdered, .mainAsync, .utility, .syncQueue(), .asyncQueue(),
            .queue(DispatchQueue(label: "i", attributes: .concurrent), .immediate),
            .queue(DispatchQueue(label: "c"), .conditionallyAsync(false)),
            .custom(CountingImmediateContext()), .direct.serialized(), .custom(MinimalSerialContext()),
        ]
        for context in contexts {
            let escaped = context.alwaysAsync()
            #expect(escaped.type.isImmediate == false, "\(context).alwaysAsync() is \(escaped.type)")
            #expect(runsOnlyAfterReturning { escaped.invoke($0) }, "\(context).alwaysAsync().invoke ran inline")
        }
        if case .default = Exec.direct.alwaysAsync() {} else { Issue.record(".direct escapes to .default") }
        if case .mainAsync = Exec.main.alwaysAsync() {} else { Issue.record(".main escapes to .mainAsync") }
    }
}

/// A concurrent context that counts the blocks handed to it.
private final class SubmissionCountingContext: ExecutionContext {
    let submissions = Atomic<Int>(0)
    var type: ExecutionType { .concurrentAsync }
    func invoke(_ execute: @escaping @Sendable () -> Void) { invokeAsync(execute) }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) {
        submissions.add(1, ordering: .relaxed)
        DispatchQueue.global().async(execute: execute)
    }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { DispatchQueue.global().sync(execute: execute) }
}

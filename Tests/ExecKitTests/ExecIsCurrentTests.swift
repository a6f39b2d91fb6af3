// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Testing

/// `isCurrent` on every context, and the `invokeSync` decisions built on it.
// Guarantees: G-iscurrent-per-kind
@Suite struct ExecIsCurrentTests {
    @Test func directIsAlwaysCurrentAndGlobalQueuesNever() async {
        #expect(Exec.direct.isCurrent)
        let answers = await withCheckedContinuation { continuation in
            Exec.utility.invoke {
                continuation.resume(returning: [Exec.utility.isCurrent, Exec.default.isCurrent, Exec.main.isCurrent])
            }
        }
        #expect(answers == [false, false, false])
    }

    @Test func mainCasesAreCurrentOnTheMainQueue() async {
        let answers = await withCheckedContinuation { continuation in
            DispatchQueue.main.async {
                continuation.resume(returning: [
                    Exec.main.isCurrent, Exec.mainAsync.isCurrent, Exec.mainOrdered.isCurrent,
                ])
            }
        }
        #expect(answers == [true, true, true])
        #expect(Exec.asyncQueue().invokeSync { Exec.main.isCurrent } == false)
    }

    @Test func aQueueContextIsCurrentInsideItsQueueAndItsChildren() {
        let parent = DispatchQueue(label: "parent")
        let child = DispatchQueue(label: "child", target: parent)
        let parentContext = Exec.queue(parent, .serialAsync)
        let childContext = Exec.queue(child, .conditionallyAsync(true))
        #expect(!parentContext.isCurrent && !childContext.isCurrent)
        #expect(child.sync { childContext.isCurrent && parentContext.isCurrent })
        #expect(parent.sync { !childContext.isCurrent && parentContext.isCurrent })
    }

    /// Reading the child's `type` first used to make the parent's answer `false`, and the `invokeSync` below then died
    /// in libdispatch's deadlock trap instead of running inline.
    // Guarantees: G-queue-identity-targets
    @Test func invokeSyncOnAParentFromAChildRunsInlineWhateverWasAskedBefore() {
        let parent = DispatchQueue(label: "parent")
        let child = DispatchQueue(label: "child", target: parent)
        let childContext = Exec.queue(child, .conditionallyAsync(true))
        let result = child.sync { () -> Int in
            _ = childContext.type  // asks about the child first
            return Exec.queue(parent, .serialAsync).invokeSync { parent.isCurrent ? 1 : 0 }
        }
        #expect(result == 1)
        #expect(child.sync { Exec.queue(parent, .conditionallyAsync(false)).invokeSync { 2 } } == 2)
    }

    // Guarantees: G-invokesync-inline-inside
    @Test func insideASyncOnAnotherQueueTheOuterContextIsStillCurrent() {
        let context = Exec.asyncQueue()
        let other = DispatchQueue(label: "other")
        #expect(context.invokeSync { other.sync { context.isCurrent } })
        // And re-entering it there runs inline instead of deadlocking.
        #expect(context.invokeSync { other.sync { context.invokeSync { 3 } } } == 3)
        #expect(!other.sync { context.isCurrent })
    }

    // Guarantees: G-iscurrent-no-false-positives
    @Test func everyQueueEnteredOnTheWayInIsCurrentAndNoneAfterLeaving() {
        let outer = Exec.syncQueue(label: "outer")
        let inner = Exec.asyncQueue(label: "inner")
        let other = DispatchQueue(label: "other")
        let answers = outer.invokeSync {
            inner.invokeSync { other.sync { [outer.isCurrent, inner.isCurrent] } }
        }
        #expect(answers == [true, true])
        // Between the two levels only the outer queue is entered.
        #expect(outer.invokeSync { other.sync { [outer.isCurrent, inner.isCurrent] } } == [true, false])
        #expect(!outer.isCurrent && !inner.isCurrent)
    }

    // Guarantees: G-iscurrent-no-false-positives
    @Test func aThrowingInvokeSyncLeavesItsQueue() {
        struct Failure: Error {}
        let context = Exec.syncQueue(label: "throwing")
        let other = DispatchQueue(label: "other")
        #expect(throws: Failure.self) { try context.invokeSync { throw Failure() } }
        #expect(throws: Failure.self) { try context.invokeSync { try other.sync { throw Failure() } } }
        // Had the error skipped the record's removal, this thread would still count as inside the queue.
        #expect(!context.isCurrent)
        #expect(!other.sync { context.isCurrent })
        #expect(context.invokeSync { 6 } == 6)
    }

    // Guarantees: G-queue-immediate-inline-inside, G-queue-given-type
    @Test func anImmediateQueueReenteredRunsInlineInsteadOfDeadlocking() {
        let serial = DispatchQueue(label: "serial.immediate")
        let context = Exec.queue(serial, .immediate)
        #expect(context.invokeSync { context.invokeSync { 4 } } == 4)
        #expect(Exec.queue(.global(), .immediate).invokeSync { 5 } == 5)
    }

    // Guarantees: G-iscurrent-no-false-positives
    @Test func mutexContextsAreCurrentWhileHeldByThisThread() {
        for context in [Exec.direct.serialized(), .custom(CountingImmediateContext()).serialized(), .syncQueue()] {
            #expect(!context.isCurrent)
            #expect(context.invokeSync { context.isCurrent })
            #expect(context.invokeSync { DispatchQueue(label: "other").sync { context.isCurrent } })
            let elsewhere = Recorder<Bool>()
            context.invokeSync {
                DispatchQueue.global().async { elsewhere.record(context.isCurrent) }
                _ = elsewhere.wait()  // another thread, while this one holds the context
            }
            #expect(elsewhere.recorded == [false])
        }
    }

    @Test func aSerializedConcurrentContextIsCurrentInsideItsBlocks() async {
        let context = Exec.custom(ConcurrentTestContext()).serialized()
        let inside = await withCheckedContinuation { continuation in
            context.invoke { continuation.resume(returning: context.isCurrent) }
        }
        #expect(inside)
        #expect(!context.isCurrent)
    }

    // Guarantees: G-custom-iscurrent-default-false
    @Test func customContextsAnswerForThemselvesAndDefaultToFalse() {
        #expect(Exec.custom(MinimalSerialContext()).isCurrent == false)
        let answering = AnsweringContext()
        #expect(Exec.custom(answering).isCurrent == false)
        answering.answer.withLock { $0 = true }
        #expect(Exec.custom(answering).isCurrent)
        #expect(Exec.custom(answering).alwaysAsync().isCurrent)
    }
}

/// An immediate context whose `isCurrent` says what the test sets.
final class AnsweringContext: ExecutionContext {
    let answer = LockedBox(false)
    var type: ExecutionType { .immediate }
    var isCurrent: Bool { answer.withLock { $0 } }
    func invoke(_ execute: @escaping @Sendable () -> Void) { execute() }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { DispatchQueue.global().async(execute: execute) }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { execute() }
}

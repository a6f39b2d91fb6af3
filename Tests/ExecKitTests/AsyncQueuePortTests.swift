// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Foundation
import Testing

// The behaviours that swift-async-queue's own tests check (its FIFOQueue, ActorQueue and CancellableQueue suites, read
// on 2026-11-27), written for ExecKit's equivalents (issue #27):
//
// - FIFOQueue (operations in order, each to completion): `SerialTaskQueue`, its plain and `isolatedTo:` forms.
// - ActorQueue and MainActor.queue (operations *start* in order on an actor, and interleave once suspended): a serial
//   context's `task { }` on the actor's own context, through the adapter `orderedStart(on:_:)` below.
// - CancellableQueue (`cancelTasks()`): `SerialTaskQueue.cancelAll()`, and `CancellableLauncher.cancelAll()` around
//   the ordered-start adapter.
//
// Deliberate differences, each checked here in ExecKit's own terms:
// - A FIFOQueue operation inherits its caller's isolation (its test mutates a main-actor local variable); a
//   SerialTaskQueue operation runs in the queue's context, or on the actor it names: main-actor state is reached with
//   `enqueue(isolatedTo: MainActor.shared)`. (`operationsReachMainActorStateThroughIsolatedTo`)
// - An ActorQueue can be released while its operations wait; the ordered-start equivalent is a context, which each
//   task keeps alive while it runs, so there is nothing to release early. (`orderedStartsRunWithNoReferenceKept`)
// - An ActorQueue adopts its actor's context once, weakly; here the actor names its context, which does not keep the
//   actor. (`aContextDoesNotKeepItsActor`)

/// Counts, and records any increment that did not land on the count it expected: the order check of every test here.
private actor OrderedCounter {
    let context: Exec
    nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedSerialExecutor }
    private(set) var count = 0
    private(set) var misses: [String] = []

    init(context: Exec = .asyncQueue()) { self.context = context }

    func increment(expecting expected: Int) {
        count += 1
        if count != expected { misses.append("expected \(expected), counted \(count)") }
    }
}

/// `OrderedCounter` on main-actor state.
@MainActor private final class MainCounter {
    private(set) var count = 0
    private(set) var misses: [String] = []

    nonisolated init() {}

    func increment(expecting expected: Int) {
        count += 1
        if count != expected { misses.append("expected \(expected), counted \(count)") }
    }
}

/// A one-permit signal: `wait()` returns once `signal()` has been called (before or after), and `isWaiting` tells
/// whether a caller is waiting now.
actor Signal {
    private var signalled = false
    private var waiter: CheckedContinuation<Void, Never>?
    var isWaiting: Bool { waiter != nil }

    func wait() async {
        if signalled {
            signalled = false
            return
        }
        await withCheckedContinuation { waiter = $0 }
    }

    func signal() {
        if let waiter {
            self.waiter = nil
            waiter.resume()
        } else {
            signalled = true
        }
    }
}

/// A test's own error.
private struct PortError: Error, Equatable {
    let code: Int
}

/// The four ways to submit to a `SerialTaskQueue`: plain or isolated to an actor, throwing or not.
enum SubmissionForm: CaseIterable, Sendable {
    case plain, isolated, throwing, throwingIsolated
}

/// A submitted operation's task, whatever its form.
private struct Submitted: Sendable {
    let value: @Sendable () async throws -> Void
    let cancel: @Sendable () -> Void
}

/// Submits `body` to `queue` in `form`: the plain forms call into `counter` from the queue's context, the isolated ones
/// run on it.
@discardableResult
private func submit(
    _ form: SubmissionForm, to queue: SerialTaskQueue, counter: OrderedCounter,
    _ body: @escaping @Sendable (isolated OrderedCounter) async -> Void
) -> Submitted {
    switch form {
    case .plain:
        let task = queue.enqueue { await body(counter) }
        return Submitted(value: { await task.value }, cancel: { task.cancel() })
    case .isolated:
        let task = queue.enqueue(isolatedTo: counter) { counter in await body(counter) }
        return Submitted(value: { await task.value }, cancel: { task.cancel() })
    case .throwing:
        let task = queue.enqueue { () async throws in await body(counter) }
        return Submitted(value: { try await task.value }, cancel: { task.cancel() })
    case .throwingIsolated:
        let task = queue.enqueue(isolatedTo: counter) { (counter) async throws in await body(counter) }
        return Submitted(value: { try await task.value }, cancel: { task.cancel() })
    }
}

/// The adapter that the port of `Task(on: actorQueue) { actor in … }` needs: a task started in the actor's own
/// (serial) context, whose first step runs `operation` on the actor. Such tasks start in the order of these calls.
@discardableResult
private func orderedStart<Success: Sendable>(
    on counter: OrderedCounter, _ operation: @escaping @Sendable (isolated OrderedCounter) async throws -> Success
) -> Task<Success, any Error> {
    counter.context.task { try await operation(counter) }
}

@Suite struct SerialTaskQueuePortTests {
    // Guarantees: G-stq-one-at-a-time
    @Test(arguments: SubmissionForm.allCases)
    func operationsRunInSubmissionOrder(form: SubmissionForm) async throws {
        let queue = SerialTaskQueue()
        let counter = OrderedCounter()
        var last: Submitted?
        for index in 1...1_000 {
            last = submit(form, to: queue, counter: counter) { $0.increment(expecting: index) }
        }
        try await last?.value()
        #expect(await counter.count == 1_000)
        #expect(await counter.misses.isEmpty)
    }

    // Guarantees: G-stq-one-at-a-time
    @Test func theFourFormsInterleavedKeepOneOrder() async throws {
        let queue = SerialTaskQueue()
        let counter = OrderedCounter()
        var last: Submitted?
        for index in 1...1_000 {
            let form = SubmissionForm.allCases[index % 4]
            last = submit(form, to: queue, counter: counter) { $0.increment(expecting: index) }
        }
        try await last?.value()
        #expect(await counter.misses.isEmpty)
        #expect(await counter.count == 1_000)
    }

    /// The deliberate difference with a FIFOQueue, whose operations inherit their caller's isolation: here main-actor
    /// state is reached by naming the main actor.
    // Guarantees: G-stq-isolated-throughout
    @Test func operationsReachMainActorStateThroughIsolatedTo() async {
        let queue = SerialTaskQueue()
        let counter = MainCounter()
        var last: Task<Void, Never>?
        for index in 1...1_000 {
            last = queue.enqueue(isolatedTo: MainActor.shared) { counter.increment(expecting: index) }
        }
        await last?.value
        #expect(await counter.count == 1_000)
        #expect(await counter.misses.isEmpty)
    }

    /// No operation starts while the one before is suspended: each finds the signal idle, then waits on it until a
    /// task of its own signals.
    // Guarantees: G-stq-one-at-a-time
    @Test(arguments: SubmissionForm.allCases)
    func anOperationRunsToCompletionAcrossItsSuspensions(form: SubmissionForm) async throws {
        let queue = SerialTaskQueue()
        let counter = OrderedCounter()
        let signal = Signal()
        var last: Submitted?
        for index in 1...200 {
            last = submit(form, to: queue, counter: counter) { counter in
                let overlapped = await signal.isWaiting
                if overlapped { counter.increment(expecting: -1) }  // recorded as a miss
                Task { await signal.signal() }
                await signal.wait()
                counter.increment(expecting: index)
            }
        }
        try await last?.value()
        #expect(await counter.misses.isEmpty)
    }

    /// Work submitted from inside an operation waits until that operation has finished.
    // Guarantees: G-stq-one-at-a-time
    @Test(arguments: SubmissionForm.allCases)
    func operationsSubmittedFromInsideAnOperationRunAfterIt(form: SubmissionForm) async throws {
        let queue = SerialTaskQueue()
        let counter = OrderedCounter()
        let inner = LockedBox<[Submitted]>([])
        try await submit(form, to: queue, counter: counter) { counter in
            let first = submit(form, to: queue, counter: counter) { $0.increment(expecting: 2) }
            counter.increment(expecting: 1)
            let second = submit(form, to: queue, counter: counter) { $0.increment(expecting: 3) }
            inner.withLock { $0 = [first, second] }
        }.value()
        for submitted in inner.withLock({ $0 }) { try await submitted.value() }
        #expect(await counter.count == 3)
        #expect(await counter.misses.isEmpty)
    }

    /// Operations already submitted run, in order, after the queue itself has been released: they keep what they
    /// need, not the queue.
    // Guarantees: G-stq-release-runs-on
    @Test(arguments: SubmissionForm.allCases)
    func operationsRunAfterTheQueueIsReleased(form: SubmissionForm) async throws {
        var queue: SerialTaskQueue? = SerialTaskQueue()
        weak let weakQueue = queue
        let counter = OrderedCounter()
        let gate = Signal()
        let first = submit(form, to: queue!, counter: counter) { counter in
            await gate.wait()
            counter.increment(expecting: 1)
        }
        let second = submit(form, to: queue!, counter: counter) { $0.increment(expecting: 2) }
        queue = nil
        #expect(weakQueue == nil)
        await gate.signal()
        try await first.value()
        try await second.value()
        #expect(await counter.count == 2)
        #expect(await counter.misses.isEmpty)
    }

    /// Cancelling an operation's task does not take it out of the queue: it runs, and sees itself cancelled.
    // Guarantees: G-task-cancelled-keeps-turn
    @Test(arguments: SubmissionForm.allCases)
    func aCancelledOperationRunsAndSeesItselfCancelled(form: SubmissionForm) async throws {
        let queue = SerialTaskQueue()
        let counter = OrderedCounter()
        let gate = Signal()
        let sawCancellation = LockedBox(false)
        submit(form, to: queue, counter: counter) { _ in await gate.wait() }
        let cancelled = submit(form, to: queue, counter: counter) { _ in
            sawCancellation.withLock { $0 = Task.isCancelled }
        }
        cancelled.cancel()
        await gate.signal()
        try await cancelled.value()
        #expect(sawCancellation.withLock { $0 })
    }

    @Test func operationsReturnTheirValue() async throws {
        let queue = SerialTaskQueue()
        let actor = OrderedCounter()
        let value = UUID()
        #expect(await queue.enqueue { value }.value == value)
        #expect(await queue.enqueue(isolatedTo: actor) { _ in value }.value == value)
        #expect(try await queue.enqueue { () async throws in value }.value == value)
        #expect(try await queue.enqueue(isolatedTo: actor) { (_) async throws in value }.value == value)
        #expect(await queue.perform(isolatedTo: actor) { _ in value } == value)
    }

    @Test func operationsThrowTheirError() async {
        let queue = SerialTaskQueue()
        let actor = OrderedCounter()
        await #expect(throws: PortError(code: 1)) {
            try await queue.enqueue { () async throws in throw PortError(code: 1) }.value
        }
        await #expect(throws: PortError(code: 2)) {
            try await queue.enqueue(isolatedTo: actor) { (_) async throws in throw PortError(code: 2) }.value
        }
        await #expect(throws: PortError(code: 3)) {
            try await queue.perform(isolatedTo: actor) { (_) async throws in throw PortError(code: 3) }
        }
    }

    /// An isolated operation runs on its actor from start to end: synchronous actor code, with no `await`.
    // Guarantees: G-stq-isolated-throughout
    @Test func anIsolatedOperationRunsOnItsActorThroughout() async throws {
        let queue = SerialTaskQueue(context: Exec.utility)
        let counter = OrderedCounter()
        let onActor = try await queue.enqueue(isolatedTo: counter) { counter in
            let before = counter.context.isCurrent
            try await Task.sleep(for: .milliseconds(1))
            counter.increment(expecting: 1)
            return before && counter.context.isCurrent
        }.value
        #expect(onActor)
        let onMain = await queue.enqueue(isolatedTo: MainActor.shared) { Exec.main.isCurrent }.value
        #expect(onMain)
    }

    @Test func performIsolatedInsideAnOperationOfTheSameQueueWouldWaitForItself() async {
        let queue = SerialTaskQueue()
        let counter = OrderedCounter()
        // Checked without stopping the program here (the exit test for `perform` is in SerialTaskQueueMisuseTests):
        // an operation of the queue submits one that `perform` would wait for, and does not wait.
        let ran = await queue.enqueue(isolatedTo: counter) { counter in
            queue.enqueue(isolatedTo: counter) { $0.increment(expecting: 2) }
            counter.increment(expecting: 1)
            return true
        }.value
        #expect(ran)
        await queue.perform(isolatedTo: counter) { _ in }
        #expect(await counter.count == 2)
    }
}

/// Cancelling everything a queue started: `SerialTaskQueue.cancelAll()` for operations in order, and
/// `CancellableLauncher.cancelAll()` around ordered starts on an actor (a private queue's, and the main actor).
@Suite struct CancelAllPortTests {
    /// What the tests below start operations on.
    enum Target: CaseIterable, Sendable {
        case serialTaskQueue, orderedStartsOnAnActor, orderedStartsOnTheMainActor
    }

    /// Something that starts operations and cancels them all.
    /// An operation runs where its launcher runs it (`nonisolated(nonsending)`): on the main actor for `Exec.main`,
    /// whose tasks prefer no executor (issue #40), so that one that does not suspend holds the main actor there too.
    /// A plain `@Sendable` closure would run on the global executor, and the third operation could finish before
    /// `cancelAll()` (seen once under load).
    private struct Starter: Sendable {
        let start:
            @Sendable (_ operation: nonisolated(nonsending) @escaping @Sendable () async -> Void) -> Task<Void, Never>
        let cancelAll: @Sendable () -> Void
    }

    private static func starter(_ target: Target) -> Starter {
        switch target {
        case .serialTaskQueue:
            let queue = SerialTaskQueue()
            return Starter(start: { operation in queue.enqueue(operation) }, cancelAll: queue.cancelAll)
        case .orderedStartsOnAnActor:
            // The operations run in the actor's context, a serial queue: one that does not suspend holds the actor.
            let launcher = CancellableLauncher(OrderedCounter().context)
            return Starter(start: { operation in launcher.task { await operation() } }, cancelAll: launcher.cancelAll)
        case .orderedStartsOnTheMainActor:
            let launcher = CancellableLauncher(Exec.main)
            return Starter(start: { operation in launcher.task { await operation() } }, cancelAll: launcher.cancelAll)
        }
    }

    // Guarantees: G-stq-cancelall, G-task-cancellable-launcher
    @Test(arguments: Target.allCases)
    func aFinishedOperationIsNotCancelled(target: Target) async {
        let starter = Self.starter(target)
        let task = starter.start {}
        await task.value
        starter.cancelAll()
        #expect(!task.isCancelled)
    }

    // Guarantees: G-stq-cancelall, G-task-cancellable-launcher
    @Test(arguments: Target.allCases)
    func theRunningOperationIsCancelled(target: Target) async {
        let starter = Self.starter(target)
        let started = Signal()
        let release = Signal()
        let sawCancellation = LockedBox(false)
        let task = starter.start {
            await started.signal()
            await release.wait()
            sawCancellation.withLock { $0 = Task.isCancelled }
        }
        await started.wait()
        starter.cancelAll()
        await release.signal()
        await task.value
        #expect(task.isCancelled)
        #expect(sawCancellation.withLock { $0 })
    }

    /// The first operation is suspended, the second holds its context until it is cancelled (in a queue of
    /// operations run to completion it waits its turn; with ordered starts it starts once the first suspends), and the
    /// third is still waiting: all three are cancelled.
    // Guarantees: G-stq-cancelall, G-task-cancellable-launcher
    @Test(arguments: Target.allCases)
    func theRunningAndThePendingOperationsAreCancelled(target: Target) async {
        let starter = Self.starter(target)
        let started = Signal()
        let release = Signal()
        let first = starter.start {
            await started.signal()
            await release.wait()
        }
        await started.wait()
        let second = starter.start {
            if target == .orderedStartsOnTheMainActor { #expect(Exec.main.isCurrent, "it holds the main actor") }
            while !Task.isCancelled {}  // no suspension: nothing else runs in the context meanwhile
        }
        let third = starter.start {}
        starter.cancelAll()
        await release.signal()
        for task in [first, second, third] { await task.value }
        #expect(first.isCancelled && second.isCancelled && third.isCancelled)
    }

    // Guarantees: G-stq-cancelall, G-task-cancellable-launcher
    @Test(arguments: Target.allCases)
    func anOperationStartedAfterCancelAllIsNotCancelled(target: Target) async {
        let starter = Self.starter(target)
        starter.cancelAll()
        let task = starter.start {}
        await task.value
        #expect(!task.isCancelled)
    }

    // Guarantees: G-stq-cancelall, G-task-cancelled-keeps-turn
    @Test func cancelAllLeavesTheQueueInOrder() async {
        let queue = SerialTaskQueue()
        let counter = OrderedCounter()
        let gate = Signal()
        queue.enqueue(isolatedTo: counter) { counter in
            await gate.wait()
            counter.increment(expecting: 1)
        }
        let pending = (2...5).map { index in
            queue.enqueue(isolatedTo: counter) { counter in counter.increment(expecting: index) }
        }
        queue.cancelAll()
        let after = queue.enqueue(isolatedTo: counter) { counter in
            counter.increment(expecting: 6)
            return Task.isCancelled
        }
        await gate.signal()
        for task in pending { await task.value }
        #expect(await after.value == false)
        let allCancelled = pending.allSatisfy { $0.isCancelled }
        #expect(allCancelled)
        #expect(await counter.misses.isEmpty)
    }

    /// A launcher of the user's that ends a task without running its operation: the queue forgets that task (and the
    /// error it holds) once the next operation starts, instead of listing it for the queue's whole life.
    @Test func aTaskWhoseLauncherSkippedItsOperationIsForgotten() async {
        let errors = LockedBox<[WeakError]>([])
        let queue = SerialTaskQueue(context: SkippingLauncher(errors: errors))
        queue.enqueue { () async throws in Issue.record("the launcher runs no throwing operation") }
        await queue.enqueue {}.value
        #expect(errors.withLock { $0.count } == 1)
        #expect(becomesNil { errors.withLock { $0.first?.error } })
        withExtendedLifetime(queue) {}
    }

    @Test func aCancellableLauncherForgetsFinishedTasksAndKeepsNothingAlive() async {
        weak var weakCapture: Token?
        let launcher = CancellableLauncher(Exec.utility)
        do {
            let capture = Token()
            weakCapture = capture
            await launcher.task { withExtendedLifetime(capture) {} }.value
        }
        #expect(becomesNil { weakCapture })
        launcher.cancelAll()  // nothing left to cancel
    }
}

/// ActorQueue's behaviours (operations start in order on an actor, and interleave once one suspends) through the
/// ordered-start adapter, and MainActor.queue's through `Exec.main.task`.
@Suite struct OrderedStartPortTests {
    @Test func aContextDoesNotKeepItsActor() {
        let context = Exec.asyncQueue()
        weak var weakCounter: OrderedCounter?
        do {
            let counter = OrderedCounter(context: context)
            weakCounter = counter
        }
        #expect(weakCounter == nil)
        withExtendedLifetime(context) {}
    }

    @Test func aStartedTaskKeepsItsActorUntilItFinishes() async throws {
        let gate = Signal()
        weak var weakCounter: OrderedCounter?
        let task: Task<Void, any Error>
        do {
            let counter = OrderedCounter()
            weakCounter = counter
            task = orderedStart(on: counter) { _ in await gate.wait() }
        }
        #expect(weakCounter != nil)
        await gate.signal()
        try await task.value
        #expect(becomesNil { weakCounter })
    }

    @Test func theOperationRunsOnTheActorItWasGiven() async throws {
        let counter = OrderedCounter()
        let same = try await orderedStart(on: counter) { isolated in isolated === counter }.value
        #expect(same)
    }

    // Guarantees: G-task-ordered-start
    @Test func tasksStartInOrder() async throws {
        let counter = OrderedCounter()
        var last: Task<Void, any Error>?
        for index in 1...1_000 { last = orderedStart(on: counter) { $0.increment(expecting: index) } }
        try await last?.value
        #expect(await counter.count == 1_000)
        #expect(await counter.misses.isEmpty)
    }

    // Guarantees: G-task-ordered-start
    @Test func mainActorTasksStartInOrder() async {
        let counter = MainCounter()
        var last: Task<Void, Never>?
        for index in 1...1_000 { last = Exec.main.task { await counter.increment(expecting: index) } }
        await last?.value
        #expect(await counter.count == 1_000)
        #expect(await counter.misses.isEmpty)
    }

    /// Unlike a SerialTaskQueue, the next task starts once the one before suspends: the first waits for a signal that
    /// only the second sends.
    @Test func theNextTaskStartsOnceTheOneBeforeSuspends() async throws {
        let counter = OrderedCounter()
        let signal = Signal()
        let waiting = orderedStart(on: counter) { _ in await signal.wait() }
        let signalling = orderedStart(on: counter) { _ in await signal.signal() }
        let finished = await finishes(within: 120) {
            _ = try? await waiting.value
            _ = try? await signalling.value
        }
        #expect(finished)
    }

    /// A task may wait for another it starts on the same actor: no deadlock.
    @Test func aTaskMayAwaitAnotherItStartsOnTheSameActor() async throws {
        let counter = OrderedCounter()
        try await orderedStart(on: counter) { counter in
            try await orderedStart(on: counter) { $0.increment(expecting: 1) }.value
            counter.increment(expecting: 2)
        }.value
        #expect(await counter.misses.isEmpty)

        let main = MainCounter()
        await Exec.main.task {
            await Exec.main.task { await main.increment(expecting: 1) }.value
            await main.increment(expecting: 2)
        }.value
        #expect(await main.misses.isEmpty)
    }

    /// The deliberate difference with an ActorQueue, which can be released while its operations wait: each task keeps
    /// the context it runs in, so the caller needs no reference.
    @Test func orderedStartsRunWithNoReferenceKept() async throws {
        let gate = Signal()
        let counter = OrderedCounter()
        let first = orderedStart(on: counter) { counter in
            await gate.wait()
            counter.increment(expecting: 1)
        }
        let second = Exec.asyncQueue().task { await counter.increment(expecting: 2) }  // a context made and dropped
        await gate.signal()
        try await first.value
        await second.value
        #expect(await counter.count == 2)
    }

    @Test func aCancelledTaskRunsAndSeesItselfCancelled() async throws {
        let counter = OrderedCounter()
        let gate = Signal()
        let task = orderedStart(on: counter) { _ in
            await gate.wait()
            return Task.isCancelled
        }
        task.cancel()
        await gate.signal()
        #expect(try await task.value)

        let mainTask = Exec.main.task { () async -> Bool in
            await gate.wait()
            return Task.isCancelled
        }
        mainTask.cancel()
        await gate.signal()
        #expect(await mainTask.value)
    }

    @Test func tasksReturnAndThrow() async throws {
        let counter = OrderedCounter()
        let value = UUID()
        #expect(try await orderedStart(on: counter) { _ in value }.value == value)
        await #expect(throws: PortError(code: 4)) {
            try await orderedStart(on: counter) { _ in throw PortError(code: 4) }.value
        }
        await #expect(throws: PortError(code: 5)) {
            try await Exec.main.task { () async throws in throw PortError(code: 5) }.value
        }
    }

    /// The closures are `@MainActor`: they call the counter's main-actor methods synchronously.
    @Test func mainTasksRunOnTheMainActor() async throws {
        let counter = MainCounter()
        await Exec.main.task { @MainActor in counter.increment(expecting: 1) }.value
        try await Exec.main.task { @MainActor () throws in counter.increment(expecting: 2) }.value
        #expect(await counter.count == 2)
        #expect(await counter.misses.isEmpty)
    }
}

/// An error object, to watch for its release.
private final class SkipError: Error, Sendable {}

/// A weak reference to a ``SkipError``.
private struct WeakError: @unchecked Sendable {  // unchecked: read and written under the LockedBox that holds it
    weak var error: SkipError?
}

/// A launcher of the user's that never runs a throwing operation: its task throws a ``SkipError`` at once (as a
/// launcher that checks cancellation first does when the task is cancelled), recorded in `errors`.
private struct SkippingLauncher: TaskLauncher {
    let errors: LockedBox<[WeakError]>

    func task<Success: Sendable>(
        priority: TaskPriority?, _ operation: sending nonisolated(nonsending) @escaping () async throws -> Success
    ) -> Task<Success, any Error> {
        let error = SkipError()
        errors.withLock { $0.append(WeakError(error: error)) }
        return Task { throw error }
    }

    func task<Success: Sendable>(
        priority: TaskPriority?, _ operation: sending nonisolated(nonsending) @escaping () async -> Success
    ) -> Task<Success, Never> {
        Task(priority: priority) { await operation() }
    }
}

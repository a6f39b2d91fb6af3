// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTestSupport
import ExecTesting
import Testing

/// `SerialTaskQueue` (issue #18): each operation starts after the previous one has finished, in submission order, in
/// virtual time on a `TestCoordinator` context. The first test runs the same operations as plain tasks too, which
/// interleave: what the queue adds is visible in one test.
@Suite struct SerialTaskQueueTests {
    /// An operation that logs its start and end around a virtual-time sleep of `seconds`.
    private static func operation(
        _ name: String, sleeping seconds: Int, _ coordinator: TestCoordinator, _ log: EventLog
    ) -> @Sendable () async -> Void {
        {
            log.append("\(name) starts at \(coordinator.seconds)")
            try? await coordinator.clock.sleep(for: .seconds(seconds))
            log.append("\(name) ends at \(coordinator.seconds)")
        }
    }

    // Guarantees: G-stq-one-at-a-time, G-stq-virtual-time
    @Test func operationsRunOneAtATimeToCompletionWherePlainTasksInterleave() {
        let coordinator = TestCoordinator()
        let queued = EventLog()
        let queue = SerialTaskQueue(context: coordinator.global)
        for (name, seconds) in [("a", 3), ("b", 1), ("c", 2)] {
            queue.enqueue(Self.operation(name, sleeping: seconds, coordinator, queued))
        }
        coordinator.run { Issue.record(Comment(rawValue: $0)) }
        #expect(
            queued.entries == [
                "a starts at 0.0", "a ends at 3.0", "b starts at 3.0", "b ends at 4.0", "c starts at 4.0",
                "c ends at 6.0",
            ])

        // The same operations as plain tasks on the same (serial) context: they start in order, then interleave.
        let plain = EventLog()
        let start = coordinator.seconds
        let serial = coordinator.serialQueue(named: "plain")
        for (name, seconds) in [("a", 3), ("b", 1), ("c", 2)] {
            serial.task(Self.operation(name, sleeping: seconds, coordinator, plain))
        }
        coordinator.run { Issue.record(Comment(rawValue: $0)) }
        #expect(plain.entries.prefix(3) == ["a starts at \(start)", "b starts at \(start)", "c starts at \(start)"])
    }

    // Guarantees: G-stq-one-at-a-time, G-stq-virtual-time
    @Test func aHundredOperationsWithUnevenSleepsFinishInSubmissionOrder() {
        let coordinator = TestCoordinator()
        let finished = Shared<[Int]>([])
        let queue = SerialTaskQueue(context: coordinator.global)
        for index in 0..<100 {
            queue.enqueue {
                try? await coordinator.clock.sleep(for: .milliseconds((index * 37) % 11))
                finished.update { $0.append(index) }
            }
        }
        coordinator.run { Issue.record(Comment(rawValue: $0)) }
        #expect(finished.value == Array(0..<100))
    }

    @Test func operationsSubmittedFromAsyncCodeAndFromInsideAnOperationKeepTheirOrder() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let queue = SerialTaskQueue(context: coordinator.global)
        coordinator.task {
            queue.enqueue {
                log.append("first")
                queue.enqueue { log.append("submitted inside first") }  // runs after first finishes
                try? await coordinator.clock.sleep(for: .seconds(1))
                log.append("first ends")
            }
            let value = await queue.perform { () async -> Int in
                log.append("performed")
                return 42
            }
            log.append("perform returned \(value)")
        }
        coordinator.run { Issue.record(Comment(rawValue: $0)) }
        // `perform` was submitted before the operation that `first` submitted from inside itself. Its caller resumes
        // when the performed operation ends, as the next operation starts: the queue does not order those two.
        #expect(
            log.entries.filter { $0 != "perform returned 42" } == [
                "first", "first ends", "performed", "submitted inside first",
            ])
        #expect(log.entries.contains("perform returned 42"))
    }

    // Guarantees: G-task-cancelled-keeps-turn
    @Test func aCancelledOperationStartsInItsTurnSeeingCancellationAndTheNextStillWaits() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let queue = SerialTaskQueue(context: coordinator.global)
        queue.enqueue(Self.operation("a", sleeping: 2, coordinator, log))
        let cancelled = queue.enqueue { () async throws in
            log.append("b starts at \(coordinator.seconds), cancelled: \(Task.isCancelled)")
            try Task.checkCancellation()
            log.append("b did its work")
        }
        queue.enqueue(Self.operation("c", sleeping: 1, coordinator, log))
        cancelled.cancel()
        coordinator.run { Issue.record(Comment(rawValue: $0)) }
        #expect(
            log.entries == [
                "a starts at 0.0", "a ends at 2.0", "b starts at 2.0, cancelled: true", "c starts at 2.0",
                "c ends at 3.0",
            ])
    }

    @Test func performReturnsTheValueAndRethrowsTheError() {
        let coordinator = TestCoordinator()
        let results = EventLog()
        let queue = SerialTaskQueue(context: coordinator.global)
        coordinator.task {
            let value = try await queue.perform { () async throws -> String in
                try await coordinator.clock.sleep(for: .seconds(1))
                return "value"
            }
            results.append(value)
            do {
                _ = try await queue.perform { () async throws -> Int in throw QueueTestFailure.expected }
            } catch {
                results.append("threw \(error)")
            }
        }
        coordinator.run { Issue.record(Comment(rawValue: $0)) }
        #expect(results.entries == ["value", "threw expected"])
    }

    // Guarantees: G-stq-perform-passes-cancellation
    @Test func cancellingTheCallerOfPerformCancelsItsOperation() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let queue = SerialTaskQueue(context: coordinator.global)
        let caller = coordinator.task {
            await queue.perform {
                do {
                    try await coordinator.clock.sleep(for: .seconds(60))
                    log.append("slept a minute")
                } catch {
                    log.append("cancelled at \(coordinator.seconds)")
                }
            }
        }
        coordinator.advance(by: .seconds(5))
        caller.cancel()
        coordinator.run { Issue.record(Comment(rawValue: $0)) }
        #expect(log.entries == ["cancelled at 5.0"])
    }

    // Guarantees: G-stq-releases-finished
    @Test func theLastOperationsResultIsNotKeptOnceItHasFinished() {
        let coordinator = TestCoordinator()
        let queue = SerialTaskQueue(context: coordinator.global)
        let weakResult = WeakBox<Token>()
        queue.enqueue { () async -> Token in
            let result = Token()
            weakResult.set(result)
            return result
        }
        coordinator.run { Issue.record(Comment(rawValue: $0)) }
        #expect(becomesNil { weakResult.value })  // the queue still exists; its tail let go of the finished task
        withExtendedLifetime(queue) {}
    }

    /// A finished operation's result goes while the next operation still runs (issue #40, item 4): the next one waited
    /// for the finished task, and must not keep it once it has.
    // Guarantees: G-stq-releases-finished
    @Test func aFinishedOperationsResultIsNotKeptWhileTheNextOneRuns() {
        let coordinator = TestCoordinator()
        let queue = SerialTaskQueue(context: coordinator.global)
        let weakResult = WeakBox<Token>()
        let log = EventLog()
        queue.enqueue { () async -> Token in
            let result = Token()
            weakResult.set(result)
            return result
        }
        queue.enqueue {
            log.append("second starts at \(coordinator.seconds)")
            try? await coordinator.clock.sleep(for: .seconds(10))
        }
        coordinator.advance(by: .seconds(1))
        #expect(log.entries == ["second starts at 0.0"])
        #expect(becomesNil { weakResult.value }, "the second operation, still running, keeps the first one's result")
        coordinator.run { Issue.record(Comment(rawValue: $0)) }
    }

    /// Operations isolated to an actor on a simulated queue run in turn, to completion, on that queue, in virtual time:
    /// the second waits out the first's sleep, and each reads and writes the actor's state with no `await`.
    // Guarantees: G-stq-isolated-throughout, G-stq-virtual-time
    @Test func isolatedOperationsRunInTurnOnTheirActorInVirtualTime() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let store = CountingStore(context: coordinator.serialQueue(named: "store"))
        let queue = SerialTaskQueue(context: coordinator.global)
        for (name, seconds) in [("a", 2), ("b", 1)] {
            queue.enqueue(isolatedTo: store) { store in
                store.count += 1
                log.append("\(name) starts at \(coordinator.seconds) in \(coordinator.currentQueueName ?? "none")")
                try? await coordinator.clock.sleep(for: .seconds(seconds))
                log.append("\(name) ends at \(coordinator.seconds), count \(store.count)")
            }
        }
        coordinator.run { Issue.record(Comment(rawValue: $0)) }
        #expect(
            log.entries == [
                "a starts at 0.0 in store", "a ends at 2.0, count 1", "b starts at 2.0 in store",
                "b ends at 3.0, count 2",
            ])
    }

    /// `cancelAll()` cancels the running operation and the waiting ones, which still run in turn and see it; an
    /// operation submitted afterwards is not cancelled.
    // Guarantees: G-stq-cancelall, G-task-cancelled-keeps-turn
    @Test func cancelAllCancelsTheRunningAndWaitingOperationsOnly() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let queue = SerialTaskQueue(context: coordinator.global)
        for name in ["a", "b", "c"] {
            queue.enqueue {
                log.append("\(name) starts, cancelled: \(Task.isCancelled)")
                try? await coordinator.clock.sleep(for: .seconds(1))
            }
        }
        coordinator.advance(by: .milliseconds(500))  // a is sleeping, b and c wait
        queue.cancelAll()
        queue.enqueue { log.append("d starts, cancelled: \(Task.isCancelled)") }
        coordinator.run { Issue.record(Comment(rawValue: $0)) }
        #expect(
            log.entries == [
                "a starts, cancelled: false", "b starts, cancelled: true", "c starts, cancelled: true",
                "d starts, cancelled: false",
            ])
        #expect(coordinator.seconds == 0.5, "a's sleep ended at once when cancelled; b and c skipped theirs")
    }

    // Guarantees: G-stq-releases-finished
    @Test func theQueueAndItsOperationsAreReleasedWhenDone() {
        let coordinator = TestCoordinator()
        weak var weakQueue: SerialTaskQueue?
        weak var weakCapture: Token?
        do {
            let queue = SerialTaskQueue(context: coordinator.global)
            let capture = Token()
            weakQueue = queue
            weakCapture = capture
            queue.enqueue { withExtendedLifetime(capture) {} }
        }
        coordinator.run { Issue.record(Comment(rawValue: $0)) }
        #expect(becomesNil { weakCapture })
        #expect(weakQueue == nil)
    }
}

/// An actor on a coordinator's context.
private actor CountingStore {
    let context: Exec
    nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedSerialExecutor }
    var count = 0

    init(context: Exec) { self.context = context }
}

/// A test's own error.
private enum QueueTestFailure: Error { case expected }

/// A weak reference that a `@Sendable` operation can fill in.
private final class WeakBox<Object: AnyObject & Sendable>: Sendable {
    private let box = LockedBox<Weak>(Weak())
    private struct Weak: @unchecked Sendable { weak var object: Object? }

    func set(_ object: Object) { box.withLock { $0.object = object } }
    var value: Object? { box.withLock { $0.object } }
}

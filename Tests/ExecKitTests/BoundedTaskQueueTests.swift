// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecKit
import ExecTestSupport
import Testing

/// `BoundedTaskQueue` on real contexts (issue #42, item 1): at most `maxConcurrent` at once, started in submission
/// order, cancellation, actors, lifetime. The virtual-time and exploration tests are in ExecTestingTests.
@Suite struct BoundedTaskQueueTests {
    /// What the operations below record: the order they started in, and how many ran at once at most.
    final class Record: Sendable {
        private let state = LockedBox(
            (started: [Int](), running: 0, most: 0, finished: 0, finishedBeforeStart: [Int: Int]()))

        func start(_ index: Int) {
            state.withLock { state in
                state.started.append(index)
                state.finishedBeforeStart[index] = state.finished
                state.running += 1
                state.most = max(state.most, state.running)
            }
        }

        func end() {
            state.withLock { state in
                state.running -= 1
                state.finished += 1
            }
        }

        var started: [Int] { state.withLock { $0.started } }
        var most: Int { state.withLock { $0.most } }
        /// The operations that started before enough of those submitted earlier had finished to leave them a place
        /// in FIFO order: operation `k` of a queue of width `n` starts only once `k - n + 1` have finished.
        func jumpedTheQueue(width: Int) -> [Int] {
            state.withLock { state in
                state.finishedBeforeStart.filter { index, finished in finished < index - width + 1 }.map(\.key).sorted()
            }
        }
    }

    @Test func callsReadAsUsersWriteThem() async throws {
        let queue = BoundedTaskQueue(maxConcurrent: 2)
        let number = await queue.enqueue { 42 }.value  // cannot throw: no `try`
        #expect(number == 42)
        let text = try await queue.enqueue { () async throws -> String in "thrown or not" }.value
        #expect(text == "thrown or not")
        #expect(await queue.perform { 7 } == 7)
        #expect(try await queue.perform { () async throws -> Int in 8 } == 8)
        #expect(queue.maxConcurrent == 2)
    }

    /// 300 operations that suspend, on three kinds of context and three widths, 20 rounds each: never more than the
    /// width run at once, and none starts ahead of its turn (operation `k` only once `k - width + 1` have finished;
    /// with a width of 1, exactly in order). Operations let start together on a concurrent context reach their first
    /// line in either order, so the order of first lines is checked only for a width of 1. (3 rounds under TSan.)
    // Guarantees: G-btq-bounded-fifo
    @Test(arguments: [Exec.utility, .asyncQueue(), .direct], [1, 2, 3])
    func operationsStartInOrderAndNeverMoreThanTheWidthRun(context: Exec, width: Int) async {
        for _ in 0..<(isThreadSanitizerActive ? 3 : 20) {
            let queue = BoundedTaskQueue(maxConcurrent: width, context: context)
            let record = Record()
            var tasks: [Task<Void, Never>] = []
            for index in 0..<300 {
                tasks.append(
                    queue.enqueue {
                        record.start(index)
                        await Task.yield()
                        await Task.yield()
                        record.end()
                    })
            }
            for task in tasks { await task.value }
            #expect(record.started.sorted() == Array(0..<300))
            if width == 1 { #expect(record.started == Array(0..<300)) }
            #expect(record.jumpedTheQueue(width: width).isEmpty)
            #expect(record.most <= width)
        }
    }

    /// Submissions from four threads at once: every operation runs, never more than the width at once. (3 rounds
    /// under TSan.)
    // Guarantees: G-btq-thread-safety
    @Test func submissionsFromManyThreadsKeepTheLimit() async {
        for _ in 0..<(isThreadSanitizerActive ? 3 : 20) {
            let queue = BoundedTaskQueue(maxConcurrent: 2, context: Exec.utility)
            let record = Record()
            let tasks = LockedBox<[Task<Void, Never>]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for index in 0..<50 {
                    let task = queue.enqueue {
                        record.start(thread * 50 + index)
                        await Task.yield()
                        record.end()
                    }
                    tasks.withLock { $0.append(task) }
                }
            }
            for task in tasks.withLock({ $0 }) { await task.value }
            #expect(record.started.sorted() == Array(0..<200))
            #expect(record.most <= 2)
        }
    }

    /// The width is reached: with operations that wait for a signal, exactly `maxConcurrent` start, and the next starts
    /// when one of them finishes.
    // Guarantees: G-btq-bounded-fifo
    @Test func theNextStartsWhenARunningOneFinishes() async {
        let queue = BoundedTaskQueue(maxConcurrent: 2)
        let record = Record()
        let gates = (0..<4).map { _ in Signal() }
        let tasks = (0..<4).map { index in
            queue.enqueue {
                record.start(index)
                await gates[index].wait()
                record.end()
            }
        }
        // The first two are let start together: on a concurrent context they reach their first line in either order.
        await record.waitUntil { $0.count == 2 }
        #expect(Set(record.started) == [0, 1])
        await gates[1].signal()
        await record.waitUntil { $0.count == 3 }
        #expect(record.started.count == 3 && record.started.last == 2, "\(record.started)")
        for gate in gates { await gate.signal() }
        for task in tasks { await task.value }
        #expect(record.started.sorted() == [0, 1, 2, 3])
        #expect(record.started.last == 3)
        #expect(record.most == 2)
    }

    /// `cancelAll()` cancels the running operations and the waiting ones, which still start in their turn, cancelled;
    /// an operation submitted afterwards is not cancelled.
    // Guarantees: G-btq-cancelall
    @Test func cancelAllCancelsTheRunningAndTheWaiting() async {
        let queue = BoundedTaskQueue(maxConcurrent: 1)
        let release = Signal()
        let started = Signal()
        let first = queue.enqueue {
            await started.signal()
            await release.wait()
            return Task.isCancelled
        }
        await started.wait()
        let second = queue.enqueue { Task.isCancelled }
        queue.cancelAll()
        let third = queue.enqueue { Task.isCancelled }
        await release.signal()
        #expect(await first.value)
        #expect(await second.value, "a waiting operation starts in its turn, cancelled")
        #expect(await third.value == false)
    }

    /// An isolated operation runs on its actor, with the actor's state at hand, and holds its place while it does.
    // Guarantees: G-btq-bounded-fifo
    @Test func isolatedOperationsRunOnTheirActor() async {
        actor Store {
            var count = 0
        }
        let store = Store()
        let queue = BoundedTaskQueue(maxConcurrent: 2)
        let record = Record()
        let tasks = (0..<50).map { index in
            queue.enqueue(isolatedTo: store) { store in
                record.start(index)
                store.count += 1  // synchronous: on the actor
                await Task.yield()
                await Task.yield()
                record.end()
            }
        }
        for task in tasks { await task.value }
        #expect(await store.count == 50)
        #expect(record.most <= 2)
        #expect(record.jumpedTheQueue(width: 2).isEmpty)
        let onMain = await queue.perform(isolatedTo: MainActor.shared) { Exec.main.isCurrent }
        #expect(onMain)
    }

    /// Releasing the queue cancels nothing: submitted operations run on, and the queue itself goes at once.
    // Guarantees: G-btq-lifetime
    @Test func releasingTheQueueCancelsNothing() async {
        weak var released: BoundedTaskQueue?
        let releases = (0..<3).map { _ in Signal() }
        var tasks: [Task<Bool, Never>] = []
        do {
            let queue = BoundedTaskQueue(maxConcurrent: 1)
            released = queue
            for index in 0..<3 {
                tasks.append(
                    queue.enqueue {
                        await releases[index].wait()
                        return Task.isCancelled
                    })
            }
        }
        #expect(released == nil, "the operations keep what they need, not the queue")
        for release in releases { await release.signal() }
        for task in tasks { #expect(await task.value == false) }
    }
}

extension BoundedTaskQueueTests.Record {
    /// Waits, polling with yields, until `condition` holds of the started operations (a bounded wait: 10 s).
    func waitUntil(_ condition: ([Int]) -> Bool) async {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition(started), ContinuousClock.now < deadline { await Task.yield() }
    }
}

// Exit tests exist on macOS, Linux and Windows only.
#if os(macOS) || os(Linux) || os(Windows)
@Suite struct BoundedTaskQueueMisuseTests {
    @Test func aWidthBelowOneStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = BoundedTaskQueue(maxConcurrent: 0)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("BoundedTaskQueue(maxConcurrent: 0) must let at least one operation run"))
    }
}
#endif

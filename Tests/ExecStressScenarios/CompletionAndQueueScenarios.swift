// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Foundation

/// `SerialTaskQueue` fed from several threads at once, and `OnceCompletion` with its three outcomes racing from
/// different threads (issue #18).
enum CompletionAndQueueScenarios {
    static var all: [StressScenario] {
        [
            StressScenario("serialTaskQueue.fromThreads", blocking: serialTaskQueueFromThreads),
            StressScenario("serialTaskQueue.isolatedAndCancelled", blocking: serialTaskQueueIsolatedAndCancelled),
            StressScenario("onceCompletion.race", blocking: onceCompletionRace),
        ]
    }

    /// Four threads submit `rounds / 4` operations each, every one suspending in its middle: no two may overlap, every
    /// one must run, and each thread's operations must run in the order that thread submitted them.
    // Guarantees: G-stq-one-at-a-time, G-stq-thread-safety
    private static func serialTaskQueueFromThreads(_ rounds: Int) throws -> String {
        let queue = SerialTaskQueue(context: Exec.utility)
        let overlaps = OverlapDetector()
        let ran = LockedBox<[[Int]]>(Array(repeating: [], count: 4))
        let perThread = max(1, rounds / 4)
        let done = Countdown(perThread * 4)
        let submitted = runOnThreads(4) { thread in
            for round in 0..<perThread {
                queue.enqueue {
                    overlaps.enter()
                    await Task.yield()  // a suspension in the middle: the next operation must still wait
                    ran.withLock { $0[thread].append(round) }
                    overlaps.leave()
                    done.arrive()
                }
            }
        }
        try check(submitted, "the submitting threads did not finish within 60 s")
        try check(done.wait(), "\(done.count) of \(perThread * 4) operations ran within 60 s")
        try check(overlaps.count == 0, "\(overlaps.count) operations started while another was running")
        for (thread, rounds) in ran.withLock({ $0 }).enumerated() {
            try check(rounds == Array(0..<perThread), "thread \(thread)'s operations ran out of order")
        }
        return "\(perThread * 4) operations from 4 threads, one at a time, each thread's in order"
    }

    /// Four threads submit `rounds / 4` operations each, in turn plain, isolated to an actor on a private queue, and
    /// isolated to the main actor, each suspending in its middle, while a fifth calls `cancelAll()` now and then. No
    /// two may overlap, every one must run (cancelled or not), each thread's must run in its order, an isolated one
    /// must run on its actor, and an operation submitted after a `cancelAll()` returned must not be cancelled by it.
    // Guarantees: G-stq-thread-safety, G-stq-cancelall, G-stq-isolated-throughout
    private static func serialTaskQueueIsolatedAndCancelled(_ rounds: Int) throws -> String {
        let queue = SerialTaskQueue(context: Exec.utility)
        let actor = QueueStressActor()
        let overlaps = OverlapDetector()
        let ran = LockedBox<[[Int]]>(Array(repeating: [], count: 4))
        let misplaced = LockedBox(0)
        let cancelledSeen = LockedBox(0)
        let perThread = max(3, rounds / 4)
        let done = Countdown(perThread * 4)
        let finished = LockedBox(false)
        startDetachedThread {
            while !finished.withLock({ $0 }) {
                queue.cancelAll()
                usleep(10_000)
            }
        }
        let submitted = runOnThreads(4) { thread in
            for round in 0..<perThread {
                // Batches of 20, each submitted once the thread's previous ones have run: a cancelAll() then finds a
                // few waiting, not the whole run's backlog.
                if round % 20 == 0 {
                    while ran.withLock({ $0[thread].count }) < round { usleep(50) }
                }
                let record: @Sendable (Bool, Bool) -> Void = { onItsActor, cancelled in
                    ran.withLock { $0[thread].append(round) }
                    if !onItsActor { misplaced.withLock { $0 += 1 } }
                    if cancelled { cancelledSeen.withLock { $0 += 1 } }
                    overlaps.leave()
                    done.arrive()
                }
                switch round % 3 {
                case 0:
                    queue.enqueue {
                        overlaps.enter()
                        await Task.yield()
                        record(true, Task.isCancelled)
                    }
                case 1:
                    queue.enqueue(isolatedTo: actor) { actor in
                        overlaps.enter()
                        await Task.yield()
                        record(actor.context.isCurrent, Task.isCancelled)
                    }
                default:
                    queue.enqueue(isolatedTo: MainActor.shared) {
                        overlaps.enter()
                        await Task.yield()
                        record(Exec.main.isCurrent, Task.isCancelled)
                    }
                }
            }
        }
        try check(submitted, "the submitting threads did not finish within 60 s")
        try check(done.wait(), "\(done.count) of \(perThread * 4) operations ran within 60 s")
        finished.withLock { $0 = true }
        try check(overlaps.count == 0, "\(overlaps.count) operations started while another was running")
        try check(
            misplaced.withLock { $0 } == 0, "\(misplaced.withLock { $0 }) isolated operations ran off their actor")
        for (thread, rounds) in ran.withLock({ $0 }).enumerated() {
            try check(rounds == Array(0..<perThread), "thread \(thread)'s operations ran out of order")
        }
        // After the canceller has stopped, a new operation is not cancelled, and runs after all the others.
        let late = queue.enqueue(isolatedTo: actor) { _ in Task.isCancelled }
        let lateCancelled = waitForValue(of: late)
        try check(lateCancelled == false, "an operation submitted after the last cancelAll() was cancelled")
        return "\(perThread * 4) operations (plain, on an actor, on the main actor) from 4 threads under repeated "
            + "cancelAll(), one at a time, each thread's in order, \(cancelledSeen.withLock { $0 }) of them cancelled"
    }

    /// Each round races a value (from a global queue, at once or after up to 2 ms), a cancellation and a 0–2 ms timeout: the handler must run
    /// exactly once, and the calls that report winning, plus the timeouts, must add up to one per round.
    // Guarantees: G-once-exactly-once, G-once-thread-safety
    private static func onceCompletionRace(_ rounds: Int) throws -> String {
        let handled = Countdown(rounds)
        let valuesOffered = Countdown(rounds)
        let outcomes = LockedBox([String: Int]())
        let winningCalls = LockedBox(0)
        let raced = runOnThreads(2) { thread in
            for round in stride(from: thread, to: rounds, by: 2) {
                let completion = OnceCompletion<Int>(
                    context: .utility, timeout: .microseconds(round % 3 * 1_000)
                ) { outcome in
                    let name: String
                    switch outcome {
                    case .success: name = "value"
                    case .failure(.timedOut): name = "timedOut"
                    case .failure(.cancelled): name = "cancelled"
                    }
                    outcomes.withLock { $0[name, default: 0] += 1 }
                    handled.arrive()
                }
                let offerValue: @Sendable () -> Void = {
                    if completion.complete(round) { winningCalls.withLock { $0 += 1 } }
                    valuesOffered.arrive()
                }
                // Half the values come at once, half after 0 to 2 ms, around the timeout.
                if round % 2 == 0 {
                    Exec.utility.invoke(offerValue)
                } else {
                    Exec.utility.invoke(after: .microseconds(round % 5 * 500), offerValue)
                }
                if round % 4 == 0, completion.cancel() { winningCalls.withLock { $0 += 1 } }
            }
        }
        try check(raced, "the racing threads did not finish within 60 s")
        try check(handled.wait(), "\(handled.count) of \(rounds) handlers ran within 60 s")
        try check(valuesOffered.wait(), "\(valuesOffered.count) of \(rounds) values were offered within 60 s")
        try check(handled.count == rounds, "\(handled.count) handlers ran for \(rounds) completions")
        let counts = outcomes.withLock { $0 }
        let wins = winningCalls.withLock { $0 }
        try check(
            wins + counts["timedOut", default: 0] == rounds,
            "\(wins) calls reported winning and \(counts["timedOut", default: 0]) timeouts fired for \(rounds) rounds")
        return "\(rounds) completions, each handled once: "
            + counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }
}

/// An actor on a private serial queue, for isolated operations.
private actor QueueStressActor {
    let context = Exec.asyncQueue()
    nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedSerialExecutor }
}

/// Blocks this (non-pool) thread until `task` has finished, and returns its value; `nil` after 60 s.
private func waitForValue<Value: Sendable>(of task: Task<Value, Never>) -> Value? {
    let result = LockedBox<Value?>(nil)
    let finished = DispatchSemaphore(value: 0)
    Task.detached {
        let value = await task.value
        result.withLock { $0 = value }
        finished.signal()
    }
    return waitBlocking(finished, seconds: 60) ? result.withLock { $0 } : nil
}

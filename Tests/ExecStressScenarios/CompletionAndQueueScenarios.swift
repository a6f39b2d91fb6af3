// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport

/// `SerialTaskQueue` fed from several threads at once, and `OnceCompletion` with its three outcomes racing from
/// different threads (issue #18).
enum CompletionAndQueueScenarios {
    static var all: [StressScenario] {
        [
            StressScenario("serialTaskQueue.fromThreads", blocking: serialTaskQueueFromThreads),
            StressScenario("onceCompletion.race", blocking: onceCompletionRace),
        ]
    }

    /// Four threads submit `rounds / 4` operations each, every one suspending in its middle: no two may overlap, every
    /// one must run, and each thread's operations must run in the order that thread submitted them.
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

    /// Each round races a value (from a global queue, at once or after up to 2 ms), a cancellation and a 0–2 ms timeout: the handler must run
    /// exactly once, and the calls that report winning, plus the timeouts, must add up to one per round.
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

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `withCallback` with its completion on another thread and with cancellation racing the completion, and `invokeSync`
/// on contexts of the user's from several threads at once.
enum CallbackScenarios {
    static var all: [StressScenario] {
        [
            StressScenario("withCallback.otherThread", run: completionOnAnotherThread),
            StressScenario("withCallback.cancelRace", run: cancellationRacingCompletion),
        ]
            + ["customSerial", "customConcurrent", "serializedCustom"].map { name in
                StressScenario(
                    "invokeSync.\(name)",
                    blocking: { rounds in
                        guard let stressContext = StressContext.all.first(where: { $0.name == name }) else {
                            throw StressFailure("no context named \(name)")
                        }
                        return try invokeSyncFromThreads(rounds, on: stressContext)
                    })
            }
    }

    private static func completionOnAnotherThread(_ rounds: Int) async throws -> String {
        for round in 0..<rounds {
            let value = try await withCallback { _, completion in Exec.utility.invoke { completion(round) } }
            try check(value == round, "round \(round): withCallback returned \(value)")
        }
        return "\(rounds) completions delivered on a global queue"
    }

    /// Each round cancels the awaiting task while the completion is on its way (from this thread or another one). The
    /// task must end exactly once, with the value or with `CancellationError`, never hang.
    // Guarantees: G-withcallback-once, G-withcallback-cancel
    private static func cancellationRacingCompletion(_ rounds: Int) async throws -> String {
        var (completed, cancelled) = (0, 0)
        for round in 0..<rounds {
            let waiter = Task {
                try await withCallback { _, completion in Exec.utility.invoke { completion(round) } }
            }
            if round % 2 == 0 { waiter.cancel() } else { Exec.utility.invoke { waiter.cancel() } }
            switch await waiter.result {
            case .success(let value):
                try check(value == round, "round \(round): withCallback returned \(value)")
                completed += 1
            case .failure(let error):
                try check(error is CancellationError, "round \(round): withCallback threw \(error)")
                cancelled += 1
            }
        }
        return "\(rounds) rounds: \(completed) completed first, \(cancelled) cancelled first"
    }

    /// Four threads call `invokeSync` (returning, and every fourth call throwing) `rounds / 4` times each; a serial
    /// context must never run two of the blocks at once.
    private static func invokeSyncFromThreads(_ rounds: Int, on stressContext: StressContext) throws -> String {
        let context = stressContext.make()
        let overlaps = OverlapDetector()
        let failures = LockedBox<[String]>([])
        let perThread = max(1, rounds / 4)
        let finished = runOnThreads(4) { thread in
            for round in 0..<perThread {
                if round % 4 == 0 {
                    do {
                        try context.invokeSync { () throws -> Void in throw RoundError(round: round) }
                        failures.withLock { $0.append("thread \(thread), round \(round): the error was not rethrown") }
                    } catch {
                        if (error as? RoundError)?.round != round {
                            failures.withLock { $0.append("thread \(thread), round \(round): rethrew \(error)") }
                        }
                    }
                    continue
                }
                let value = context.invokeSync {
                    if stressContext.isSerial { overlaps.enter() }
                    sched_yield()  // a moment inside, for another thread's block to overlap if the context let it
                    if stressContext.isSerial { overlaps.leave() }
                    return round
                }
                if value != round {
                    failures.withLock { $0.append("thread \(thread), round \(round): invokeSync returned \(value)") }
                }
            }
        }
        try check(finished, "the threads did not finish within the time limit (a lost or deadlocked invokeSync)")
        let found = failures.withLock { $0 }
        try check(found.isEmpty, found.prefix(5).joined(separator: "; "))
        try check(overlaps.count == 0, "\(overlaps.count) blocks ran beside another on a serial context")
        return "\(4 * perThread) invokeSync calls from 4 threads, a quarter of them throwing"
    }
}

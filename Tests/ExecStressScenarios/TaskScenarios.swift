// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit

/// Tasks started in every context (`task`, both forms, and `Task(executorPreference:)`), and actors on every serial
/// context called from plain tasks.
enum TaskScenarios {
    static var all: [StressScenario] {
        StressContext.all.map { stressContext in
            StressScenario("task.\(stressContext.name)") { rounds in try await taskRounds(rounds, on: stressContext) }
        }
            // A user's serial context that implements only the four requirements has no serial executor.
            + StressContext.serial.filter { $0.name != "customSerial" }.map { stressContext in
                StressScenario("actor.\(stressContext.name)") { rounds in
                    try await actorRounds(rounds, on: stressContext)
                }
            }
    }

    /// Each round starts a non-throwing task that suspends once and checks it is in the context before and after;
    /// every other round does the same through `Task(executorPreference:)`, and every eighth round cancels a throwing
    /// task that sleeps.
    private static func taskRounds(_ rounds: Int, on stressContext: StressContext) async throws -> String {
        let context = stressContext.make()
        var cancelled = 0
        for round in 0..<rounds {
            let task: Task<(Int, Bool), Never>
            if round % 2 == 0 {
                task = context.task {
                    let before = stressContext.isInside(context)
                    await Task.yield()
                    return (round, before && stressContext.isInside(context))
                }
            } else {
                task = Task(executorPreference: context.taskExecutor) {
                    let before = stressContext.isInside(context)
                    await Task.yield()
                    return (round, before && stressContext.isInside(context))
                }
            }
            let (value, inside) = await task.value
            try check(value == round, "round \(round): the task returned \(value)")
            try check(inside, "round \(round): the task did not run inside \(stressContext.name)")
            if round % 8 == 0 {
                let sleeper = context.task { try await Task.sleep(for: .seconds(60)) }
                sleeper.cancel()
                let outcome = await sleeper.result
                guard case .failure(let error) = outcome, error is CancellationError else {
                    throw StressFailure("round \(round): a cancelled sleeping task ended with \(outcome)")
                }
                cancelled += 1
            }
        }
        return "\(rounds) tasks (half through taskExecutor), each checked inside the context across a suspension; "
            + "\(cancelled) sleeping tasks cancelled"
    }

    /// Two plain tasks call one actor on the context `rounds / 2` times each; every call must run inside the context,
    /// one at a time, and none may be lost.
    private static func actorRounds(_ rounds: Int, on stressContext: StressContext) async throws -> String {
        let context = stressContext.make()
        let counter = ContextCounter(context: context, isInside: stressContext.isInside)
        let perCaller = max(1, rounds / 2)
        let callers = (0..<2).map { _ in
            Task.detached { () -> String? in
                var last = 0
                for _ in 0..<perCaller {
                    let (count, inside) = await counter.increment()
                    if !inside { return "a call ran outside \(stressContext.name)" }
                    if count <= last { return "the count went from \(last) to \(count)" }
                    last = count
                }
                return nil
            }
        }
        for caller in callers {
            if let failure = await caller.value { throw StressFailure(failure) }
        }
        let total = await counter.count
        try check(total == 2 * perCaller, "\(2 * perCaller) calls made, \(total) counted")
        return "\(total) actor calls from two plain tasks, each inside the context, none lost"
    }
}

/// An actor whose executor is a context's: counts calls and reports whether each ran inside the context.
private actor ContextCounter {
    let context: Exec
    let isInside: @Sendable (Exec) -> Bool
    var count = 0

    init(context: Exec, isInside: @escaping @Sendable (Exec) -> Bool) {
        self.context = context
        self.isInside = isInside
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedSerialExecutor }

    func increment() -> (Int, Bool) {
        count += 1
        return (count, isInside(context))
    }
}

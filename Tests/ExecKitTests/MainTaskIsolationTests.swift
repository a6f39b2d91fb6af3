// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

/// A task started on a main-queue context (`.main`, `.mainAsync`, `.mainOrdered`, or a `.queue` made from the main
/// queue) runs every job isolated to the main actor: it calls `@MainActor` code with no hop, inline in its own job,
/// before the main queue runs anything queued meanwhile. The price: a call to a `nonisolated` `async` function from
/// such a task goes round the main queue.
@Suite struct MainTaskIsolationTests {
    enum MainContext: String, CaseIterable, Sendable {
        case main, mainAsync, mainOrdered, mainQueueSerialAsync, mainQueueConditionallyAsync, mainQueueConcurrentAsync
        case mainQueueImmediate

        var exec: Exec {
            switch self {
            case .main: return .main
            case .mainAsync: return .mainAsync
            case .mainOrdered: return .mainOrdered
            case .mainQueueSerialAsync: return .queue(.main, .serialAsync)
            case .mainQueueConditionallyAsync: return .queue(.main, .conditionallyAsync(true))
            case .mainQueueConcurrentAsync: return .queue(.main, .concurrentAsync)
            case .mainQueueImmediate: return .queue(.main, .immediate)
            }
        }
    }

    /// How long a task may take to finish: generous, because the whole suite runs in parallel on two cores, where
    /// blocking tests can hold the main queue and the cooperative pool for tens of seconds (a 30 s bound failed once
    /// in five CI runs); a task that never finishes still fails.
    static let bound = 120.0

    @MainActor private static func recordOnTheMainActor(_ log: Recorder<String>) {
        log.record("main-actor call")
    }

    /// Stops the test process if the runtime does not see the caller as isolated to the main actor. (A synchronous
    /// function: `assumeIsolated` is unavailable in asynchronous code.)
    private static func assumeMainActorIsolation() -> Bool {
        MainActor.assumeIsolated { Exec.main.isCurrent }
    }

    private nonisolated static func recordNonisolated(_ log: Recorder<String>) async {
        log.record("nonisolated call")
    }

    // Guarantees: G-task-main-isolated
    @Test(arguments: MainContext.allCases)
    func aTaskCallsMainActorCodeWithNoHop(context: MainContext) async {
        for _ in 0..<20 {
            let log = Recorder<String>()
            let task = context.exec.task { () async -> Bool in
                let onMain = Self.assumeMainActorIsolation()
                // Queued behind this job: it can run only once the job has ended or given the main queue up.
                DispatchQueue.main.async { log.record("queued block") }
                await Self.recordOnTheMainActor(log)
                return onMain
            }
            #expect(
                await value(of: task, within: Self.bound) == true,
                "the task did not finish, or its job was not on the main queue")
            #expect(log.wait(for: 2), "the queued block or the main-actor call never ran")
            #expect(
                log.recorded == ["main-actor call", "queued block"],
                "the @MainActor call must run inline in the task's job, before the main queue's next block")
        }
    }

    // Guarantees: G-task-main-isolated
    @Test func aNonisolatedAsyncCallFromAMainTaskGoesRoundTheMainQueue() async {
        for _ in 0..<20 {
            let log = Recorder<String>()
            let task = Exec.main.task {
                DispatchQueue.main.async { log.record("queued block") }
                await Self.recordNonisolated(log)
            }
            #expect(await value(of: task, within: Self.bound) != nil, "the task did not finish")
            #expect(log.wait(for: 2), "the queued block or the nonisolated call never ran")
            #expect(log.recorded == ["queued block", "nonisolated call"])
        }
    }
}

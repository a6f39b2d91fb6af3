// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

/// Releasing a `CancellableLauncher` cancels nothing: its tasks, suspended or still waiting for their turn, run on
/// uncancelled. And a launcher that lives on keeps nothing of a finished task: not its result, not its error.
@Suite struct CancellableLauncherReleaseTests {
    // Guarantees: G-task-cancellable-release-cancels-nothing
    @Test func aSuspendedTaskRunsOnUncancelledAfterTheLauncherIsReleased() async {
        let started = DispatchSemaphore(value: 0)
        let (resume, resumeContinuation) = AsyncStream.makeStream(of: Void.self)
        weak var weakLauncher: CancellableLauncher?
        let task: Task<Bool, Never>
        do {
            let launcher = CancellableLauncher(Exec.utility)
            weakLauncher = launcher
            task = launcher.task {
                started.signal()
                // Suspended here. A cancelled task leaves the loop at once (the stream ends for it), unresumed.
                for await _ in resume { break }
                return Task.isCancelled
            }
        }
        #expect(await Self.wait(started), "the task never started")
        #expect(weakLauncher == nil, "the launcher must be gone while its task is suspended")
        resumeContinuation.yield()
        #expect(await value(of: task) == false, "releasing the launcher must not cancel its task")
    }

    /// On a serial context, a task waiting for its turn when the launcher goes still starts, uncancelled.
    // Guarantees: G-task-cancellable-release-cancels-nothing
    @Test func aTaskNotStartedYetStartsUncancelledAfterTheLauncherIsReleased() async {
        let queue = Exec.asyncQueue(label: "busy")
        let busy = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        queue.invoke {
            busy.signal()
            _ = release.wait(timeout: .now() + 10)  // bounded: never holds the queue for good
        }
        #expect(await Self.wait(busy), "the queue never started the blocking block")
        weak var weakLauncher: CancellableLauncher?
        let task: Task<Bool, Never>
        do {
            let launcher = CancellableLauncher(queue)
            weakLauncher = launcher
            task = launcher.task { Task.isCancelled }
        }
        #expect(weakLauncher == nil)
        release.signal()
        #expect(await value(of: task) == false, "releasing the launcher must not cancel a task waiting its turn")
    }

    /// A finished task's result lives in its `Task`. A launcher that still listed the task once its operation had
    /// returned would keep that result alive; dropping the caller's handle lets it go while the launcher lives on.
    // Guarantees: G-task-cancellable-forgets
    @Test(arguments: [Exec.utility, .asyncQueue(), .direct])
    func aFinishedTasksResultIsReleasedWhileTheLauncherLives(context: Exec) async {
        let launcher = CancellableLauncher(context)
        weak var weakResult: Token?
        do {
            let task = launcher.task { Token() }
            let result = await value(of: task)
            #expect(result != nil, "the task never finished")
            weakResult = result
        }
        #expect(becomesNil { weakResult }, "the launcher still keeps a finished task, and so its result")
        withExtendedLifetime(launcher) {}
    }

    /// The throwing form forgets a task once its operation has thrown: the error, kept by the `Task`, goes with it.
    // Guarantees: G-task-cancellable-forgets
    @Test func aFinishedTasksErrorIsReleasedWhileTheLauncherLives() async {
        let launcher = CancellableLauncher(Exec.utility)
        weak var weakError: ReleasedError?
        do {
            let task = launcher.task { () async throws -> Void in throw ReleasedError() }
            let outcome = await value(of: Task { await task.result })
            guard case .failure(let error as ReleasedError)? = outcome else {
                Issue.record("the task never finished, or did not throw the error")
                return
            }
            weakError = error
        }
        #expect(becomesNil { weakError }, "the launcher still keeps a finished task, and so its error")
        withExtendedLifetime(launcher) {}
    }

    /// Waits for `semaphore` off the cooperative pool, for at most 10 s.
    private static func wait(_ semaphore: DispatchSemaphore) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: semaphore.wait(timeout: .now() + 10) == .success)
            }
        }
    }
}

/// An error that is an object, to watch its release.
private final class ReleasedError: Error, Sendable {}

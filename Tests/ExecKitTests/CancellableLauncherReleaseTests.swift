// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

/// Releasing a `CancellableLauncher` cancels nothing: its tasks, suspended or still waiting for their turn, run on
/// uncancelled.
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

    /// Waits for `semaphore` off the cooperative pool, for at most 10 s.
    private static func wait(_ semaphore: DispatchSemaphore) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: semaphore.wait(timeout: .now() + 10) == .success)
            }
        }
    }
}

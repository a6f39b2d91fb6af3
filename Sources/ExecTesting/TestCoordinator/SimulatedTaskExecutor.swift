// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit

/// A `TaskExecutor` whose jobs are pieces of work in a ``TestCoordinator``, due now, in one simulated queue.
///
/// `enqueue` schedules the job at once, on whatever thread resumes the task, so a continuation resumed by work the
/// coordinator runs lands in the same `runUntilIdle` or `advance` call, with no yielding. A job the coordinator drops
/// (``TestCoordinator/discardPendingWork()``, or the coordinator gone) runs on Swift's global executor instead, so that
/// its task finishes.
final class SimulatedTaskExecutor: TaskExecutor {
    private let storage: CoordinatorStorage
    private let queue: SimulatedQueue

    init(storage: CoordinatorStorage, queue: SimulatedQueue) {
        self.storage = storage
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        // An ExecutorJob cannot be captured (it is ~Copyable); its unowned form can.
        // Dropped, the job goes to Swift's executor, never back into a coordinator that captures tasks.
        schedule(UnownedJob(job)) { GlobalJobCapture.enqueueUncaptured($0) }
    }

    /// Schedules `job` to run here; dropped (discarded, or refused by a coordinator that is gone), it goes to
    /// `whenDropped`, a real executor: its task must still finish.
    func schedule(_ job: UnownedJob, whenDropped: @escaping @Sendable (UnownedJob) -> Void) {
        let block = runningHere(job, whenDropped: whenDropped)
        storage.scheduleNow(.job, on: queue) { block.run() }
    }

    /// Schedules `job`, of a task `target` captured that something outside woke, to run here if the coordinator still
    /// captures into `target` (see ``CoordinatorStorage/scheduleWoken(on:for:_:)``); otherwise, or dropped later, it
    /// goes to `whenDropped`.
    func scheduleWoken(
        _ job: UnownedJob, for target: CaptureTarget, whenDropped: @escaping @Sendable (UnownedJob) -> Void
    ) {
        let block = runningHere(job, whenDropped: whenDropped)
        storage.scheduleWoken(on: queue, for: target) { block.run() }
    }

    /// A block that runs `job` on this executor, or, released unrun, hands it to `whenDropped`.
    @inline(__always)
    private func runningHere(
        _ job: UnownedJob, whenDropped: @escaping @Sendable (UnownedJob) -> Void
    ) -> DropAwareBlock {
        DropAwareBlock {
            ExecutorJobs.run(job, on: self.asUnownedTaskExecutor(), isolatedTo: nil)
        } whenDropped: {
            whenDropped(job)
        }
    }
}

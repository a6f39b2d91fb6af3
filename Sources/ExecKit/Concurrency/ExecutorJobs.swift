// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims

/// The one way ExecKit's executors run a job, so that the task executor a task prefers goes with it into an actor's
/// serial executor.
///
/// Why: the Swift runtime (checked on 6.3) runs a job that a custom serial executor passes to
/// `runSynchronously(on:)` as if its task preferred no task executor. In an actor method of a task that does prefer one
/// (`context.task { await actor.method() }`), the runtime then finds the actor's executor and the task's preference at
/// odds at each later `await` on the actor's own isolation (`withCheckedContinuation`, another method of the same
/// actor), and enqueues the task on the actor again instead of going on: other jobs of the actor run in between, and a
/// method that checked a flag and then waits on a continuation misses the signal that ran in that gap, so its task
/// never finishes. For a default actor the runtime passes the task's preference itself; a custom executor must pass it
/// to `runSynchronously(isolatedTo:taskExecutor:)`, but no public API reads a job's preference.
///
/// What ExecKit does: every ExecKit executor runs a job inside a record, on its thread, of the job and the task executor
/// its task prefers. A task hops into an actor from inside its own job (the runtime enqueues it from there), so an
/// ExecKit serial executor handed the job this thread is running learns its preference from the record, and runs the
/// job with it. A job that arrives any other way (a task started isolated to the actor, a continuation resumed straight
/// onto the actor by another task, a hop from a task executor that ExecKit did not make) runs with no preference, as
/// the runtime would run it.
///
/// The record holds the task executor that ran the job, which is the task's preference but for one case: a task that
/// sets another preference with `withTaskExecutorPreference` and calls an actor before any hop takes the old one into
/// the actor, which then runs the job as it would have before (with a preference at odds, as the runtime itself does).
/// The main actor's executor is the runtime's, not ExecKit's, so a task that hops onto the main actor from any
/// executor but the main queue's runs there without its preference; the main queue's task executors avoid the hop by
/// running their jobs isolated to the main actor.
///
/// - Cost: a thread-local load and a compare per job enqueued on a serial executor; a thread-local load and two stores
///   per job run. No allocation.
package enum ExecutorJobs {
    /// What the thread-local record holds while a job runs; it lives in the frame that runs the job.
    private struct Record {
        let job: UnsafeRawPointer
        let preference: UnownedTaskExecutor?
    }

    /// The task executor that `job`'s task prefers, when `job` is the job that this thread runs now through an ExecKit
    /// executor (a task hopping into an actor); `nil` otherwise, and for a task with no preference.
    package static func preference(of job: UnownedJob) -> UnownedTaskExecutor? {
        guard let pointer = execkit_running_job() else { return nil }
        let record = pointer.assumingMemoryBound(to: Record.self).pointee
        return record.job == address(of: job) ? record.preference : nil
    }

    /// Runs a task executor's job: its task prefers `taskExecutor` (the runtime enqueues only such jobs there).
    ///
    /// - Parameter isolation: the serial executor whose isolation this thread already holds whenever it runs the task
    ///   executor's jobs (the main actor's, for the main queue), so that the task calls into that isolation with no
    ///   hop; `nil` for a task executor that holds none.
    package static func run(
        _ job: UnownedJob, on taskExecutor: UnownedTaskExecutor, isolatedTo isolation: UnownedSerialExecutor?
    ) {
        recording(job, preference: taskExecutor) {
            if let isolation {
                job.runSynchronously(isolatedTo: isolation, taskExecutor: taskExecutor)
            } else {
                job.runSynchronously(on: taskExecutor)
            }
        }
    }

    /// Runs a serial executor's job isolated to `serialExecutor`, with the task executor its task prefers when that
    /// is known (see ``preference(of:)``, read when the job was enqueued).
    package static func run(
        _ job: UnownedJob, isolatedTo serialExecutor: UnownedSerialExecutor, preferring preference: UnownedTaskExecutor?
    ) {
        recording(job, preference: preference) {
            if let preference {
                job.runSynchronously(isolatedTo: serialExecutor, taskExecutor: preference)
            } else {
                job.runSynchronously(on: serialExecutor)
            }
        }
    }

    private static func recording(_ job: UnownedJob, preference: UnownedTaskExecutor?, _ body: () -> Void) {
        let outer = execkit_running_job()
        var record = Record(job: address(of: job), preference: preference)
        withUnsafeMutablePointer(to: &record) { pointer in
            execkit_set_running_job(pointer)
            body()
        }
        execkit_set_running_job(outer)
    }

    /// A job's identity: the address of the runtime's job (for a task's job, the task).
    private static func address(of job: UnownedJob) -> UnsafeRawPointer {
        unsafeBitCast(job, to: UnsafeRawPointer.self)
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// The floor of ExecKit's queue executors: the least an executor on a Dispatch queue can do, written by hand. Each job
// goes to `queue.async` and runs there; nothing records entry, carries a task's preference or avoids the block. A
// baseline built on these crosses the same threads as the ExecKit row beside it (the same queue, woken the same way),
// which `Task {}` on the global executor does not.

import Dispatch

/// A task executor that runs every job on `queue`, through `queue.async`.
public final class MinimalQueueTaskExecutor: TaskExecutor {
    private let queue: DispatchQueue

    public init(_ queue: DispatchQueue) { self.queue = queue }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// An actor's serial executor on a serial `queue`, through `queue.async`.
public final class MinimalQueueSerialExecutor: SerialExecutor {
    private let queue: DispatchQueue

    public init(_ queue: DispatchQueue) { self.queue = queue }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

extension TestCoordinator {
    /// Runs `body` with plain Swift concurrency under the coordinator: every job enqueued on Swift's global executor
    /// by `body`, or by work the coordinator runs meanwhile, becomes work of its ``global`` queue, run in its order
    /// (and explored, under an exploring ordering) like the rest. That is a `Task {}` or a child task with no executor
    /// preference, a default actor's jobs, and a continuation resumed onto the global executor.
    /// <!-- G-virtual-captured-tasks -->
    ///
    /// ```swift
    /// TestCoordinator.explore(.exhaustive) { coordinator in
    ///     coordinator.withTasksCaptured {
    ///         Task { await cache.store(1) }
    ///         Task { await cache.store(2) }
    ///         coordinator.runUntilIdle()
    ///     }
    /// }
    /// ```
    ///
    /// - Ordering: a captured job is due at once, as a job of ``taskExecutor`` is. <!-- G-virtual-captured-tasks -->
    /// - Thread-safety: tests in parallel keep their own jobs. A job belongs to this coordinator when `body`'s task
    ///   (or a task it started) enqueues it, or a thread running this coordinator's work does; any other job, from a
    ///   test that captures nothing included, goes to Swift's executor, or to a hook installed before (Point-Free's
    ///   `withMainSerialExecutor`, say), which is put back when the last capturing call returns. A hook installed over
    ///   ExecTesting's meanwhile stays. <!-- G-virtual-captured-tasks-isolated -->
    /// - Synchronous: `body` does not await. An awaiting body's own jobs would belong to the coordinator too (a hop to
    ///   an actor, a `Task.yield()`), and only the body runs the coordinator: it would wait for ever. From an `async`
    ///   test, call this form; start tasks inside, run the coordinator, and read their results after it returns.
    /// - Woken from outside: a task whose job the coordinator ran, woken by something outside it (a real `Task.sleep`
    ///   ending, a continuation resumed from a real queue) while this call runs, comes back to the coordinator as a
    ///   job due at once, for the next `runUntilIdle()`; when it arrives is real time's choice, so put sleeps on
    ///   ``clock``. Still pending when this call returns, or woken after, it goes on on Swift's executor.
    ///   <!-- G-virtual-captured-tasks-woken -->
    /// - Limits: main-actor jobs (`Task { @MainActor in }`) run on the real main actor: Swift 6.3's runtime enqueues
    ///   them past its main-executor hook, which never fires for them. Where the runtime does not export its hook,
    ///   nothing is captured (``capturesTasks`` says which).
    /// - Hangs: once this call has returned, a task started inside `body` (or by such a task) that is still waiting
    ///   once nothing is pending, and still after `hangGrace` of real time, is reported as a hang naming the line of
    ///   this call: by an exploration, as the run's failure, and by ``assertNoPendingWork(fileID:line:reportFailure:)``.
    ///   Its `Task` handle may be held or not: a task releases what it carries when it finishes. A main-actor task
    ///   started inside counts too, though it is not captured: check from the main thread only once it has run. A
    ///   `Task.detached` started in `body` is captured (its start is enqueued there) but carries nothing of its
    ///   creator's, so it is not tracked.
    ///   <!-- G-virtual-captured-tasks-hang -->
    /// - Real sleeps: a real `Task.sleep` (or a callback from a real queue) in a captured task is waited for, up to
    ///   `hangGrace`; a longer one is reported as a hang. It stays real because Swift's runtime sleeps outside every
    ///   hook ExecTesting can install: since Swift 6.2 it arms the default executor's timer directly, so no
    ///   coordinator sees a sleep start. Only ``clock`` puts a sleep in virtual time: inject it where the code sleeps.
    ///   <!-- G-virtual-captured-tasks-grace -->
    /// - Cleaning up: resume a task left waiting (a continuation, a cancelled receiver) inside `body`, then run the
    ///   coordinator, so that it finishes in the coordinator's order. Resumed after this call returns, it finishes on
    ///   Swift's executor, racing the grace: a replay of the run may then report the hang or not.
    ///
    /// - Parameters:
    ///   - hangGrace: How long a task of this call may stay waiting, in real time, once nothing is pending, before it
    ///     is reported as a hang; 0.2 s unless given. A check that finds every task finished returns at once, so a
    ///     longer grace costs only the runs that report a hang (each waits that long). Must not be negative.
    ///   - filePath: Named in a hang report; defaults to the caller's file. Taken as an argument, not read from the
    ///     stack: an optimized caller that makes this call last jumps here, and its frame is gone.
    ///   - line: Named in a hang report; defaults to the caller's line.
    ///   - body: Starts the tasks, and runs the coordinator. It must not await (see above).
    public func withTasksCaptured<Return>(
        hangGrace: Duration = .milliseconds(200),
        filePath: StaticString = #filePath,
        line: UInt = #line,
        _ body: () throws -> Return
    ) rethrows -> Return {
        precondition(
            hangGrace >= .zero, "ExecTesting: withTasksCaptured's hangGrace is \(hangGrace), which is negative")
        storage.beginCapturing(CaptureTarget(executor: globalExecutor))
        defer { storage.endCapturing() }
        let ticket = newCaptureTicket(
            grace: hangGrace, at: PendingWork.CallSite(path: "\(filePath)", line: Int(line)))
        defer { if let ticket { launchedTasks.captureReturned(ticket) } }
        return try GlobalJobCapture.$bodyTicket.withValue(ticket) { try body() }
    }

    /// A ticket for one `withTasksCaptured` call, recorded (weakly) with where the call was made.
    private func newCaptureTicket(grace: Duration, at callSite: PendingWork.CallSite) -> CaptureTicket? {
        guard let target = storage.captureTarget else { return nil }
        let ticket = CaptureTicket(target: target)
        launchedTasks.captured(ticket, at: callSite, grace: grace)
        return ticket
    }

    /// Whether ``withTasksCaptured(hangGrace:filePath:line:_:)`` can capture jobs here: the Swift runtime exports the hook it needs.
    public static var capturesTasks: Bool { GlobalJobCapture.isAvailable }
}

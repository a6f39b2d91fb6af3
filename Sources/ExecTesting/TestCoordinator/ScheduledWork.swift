// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// One piece of work waiting in a ``TestCoordinator``: what runs, in which simulated queue, and what it is.
struct ScheduledWork: Sendable {
    /// The queue the work runs in; `nil` for work that belongs to no queue (a sleeping task's wake-up).
    let queue: SimulatedQueue?
    /// What the work is, for ``TestCoordinator/pendingWork``.
    let kind: PendingWork.Kind
    let body: @Sendable () -> Void
}

/// Names one scheduled piece of work so that it can be cancelled; a token whose work has run or was cancelled is stale,
/// and cancelling it does nothing.
struct WorkToken: Sendable, Equatable {
    let slot: Int
    let sequence: UInt64
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// One piece of work waiting in a ``TestCoordinator``: what runs, in which simulated queue, and what it is.
struct ScheduledWork: Sendable {
    /// The queue the work runs in; `nil` for work that belongs to no queue (a sleeping task's wake-up).
    let queue: SimulatedQueue?
    /// What the work is, for ``TestCoordinator/pendingWork``.
    let kind: PendingWork.Kind
    /// Where it was scheduled, if the coordinator records call sites.
    let origin: RecordedCallSite?
    let body: @Sendable () -> Void
    /// For a periodic timer, when its firings are due; `nil` for work that runs once.
    var repetition: Repetition?
    /// For a timer, how much later than its deadline each firing may come, in nanoseconds: an exploring coordinator
    /// may fire it anywhere in that window (the fixed order, at the deadline).
    var leeway: UInt64 = 0
    /// What to do instead of running it when the coordinator discards its pending work (a sleep's wake-up resumes the
    /// sleeping task with `CancellationError`); `nil` to just release it.
    var onDiscard: (@Sendable () -> Void)? = nil

    /// The schedule of a periodic timer: firing k is due at `start + k * period`, computed from the start each time,
    /// so it never drifts.
    struct Repetition: Sendable {
        let start: UInt64
        let period: UInt64
        /// How many firings have been scheduled, the pending one included.
        var firings: UInt64 = 1

        /// The deadline of firing `firings`, saturating at the end of time.
        var deadline: UInt64 { deadline(ofFiring: firings) }

        /// The deadline of the firing after the pending one.
        var nextDeadline: UInt64 { deadline(ofFiring: firings + 1) }

        private func deadline(ofFiring firing: UInt64) -> UInt64 {
            let (offset, overflow) = period.multipliedReportingOverflow(by: firing)
            let (deadline, overflowSum) = start.addingReportingOverflow(offset)
            return overflow || overflowSum ? .max : deadline
        }
    }

    /// Whether this is the rest of a concurrent block parked part-way (see ``Fiber``), whose `body` resumes its fiber:
    /// the only block of a concurrent queue with a discard action. Told from the fields every piece of work has, since
    /// one more stored field costs every copy of every piece of work (the fixed order's periodic firing: 1,531
    /// instructions against 1,482).
    var isResumption: Bool {
        kind == .block && onDiscard != nil && queue?.isConcurrent == true
    }

    /// Whether this is a block or timer handler of a concurrent queue (not a task job): what an exploration with
    /// `interleavesGlobalBlocks` runs on a fiber, and one without runs whole, counting its points.
    var isGlobalBlock: Bool {
        kind != .job && queue?.isConcurrent == true
    }
}

extension PendingWork {
    /// How ``TestCoordinator/pendingWork`` and an exploration's report describe `work`, due at `deadline` (uptime
    /// nanoseconds) with sequence number `sequence`; its call site is resolved only when read.
    init(_ work: ScheduledWork, dueAt deadline: UInt64, sequence: UInt64) {
        self.init(
            kind: work.kind, queueName: work.queue?.name, deadline: DispatchTime(uptimeNanoseconds: deadline),
            sequence: sequence, origin: work.origin)
    }
}

/// Names one scheduled piece of work (all firings of a periodic timer included) so that it can be cancelled; a token
/// whose work has run for the last time or was cancelled is stale, and cancelling it does nothing.
struct WorkToken: Sendable, Equatable {
    let slot: Int
    /// Unique per piece of work: the sequence number it was first scheduled with.
    let id: UInt64

    /// The token of work that was refused (the coordinator is gone): it names nothing, so cancelling it does nothing.
    static let none = WorkToken(slot: .max, id: .max)
}

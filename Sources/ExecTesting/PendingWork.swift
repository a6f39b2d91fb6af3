// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

public import ExecKit

/// A piece of work that a ``TestCoordinator`` holds and has not run yet, as ``TestCoordinator/pendingWork`` lists it.
///
/// The `ExecutionContext`, `Clock` and `TaskExecutor` requirements through which work arrives carry no call site, so
/// a pending item is described by what it is, where it would run, when it is due and its place in the order of
/// scheduling.
public struct PendingWork: Sendable, Equatable, CustomStringConvertible {
    /// What a pending item is.
    public enum Kind: Sendable, Hashable {
        /// A block passed to `invoke`, `invokeAsync` (or `perform`) and not yet run.
        case block
        /// A one-shot timer that has not fired.
        case singleTimer
        /// The next firing of a periodic timer that fires every `interval`.
        case periodicTimer(interval: Duration)
        /// A job of a Swift task, enqueued on one of the coordinator's task executors.
        case job
        /// A task sleeping on ``TestCoordinator/clock`` until the deadline.
        case sleep
    }

    /// What the item is.
    public let kind: Kind
    /// The name of the simulated queue it would run in (`"main"`, `"global"`, a serial queue's name), or `nil` for a
    /// sleep, which belongs to no queue.
    public let queueName: String?
    /// When it is due, in the coordinator's virtual time.
    public let deadline: DispatchTime
    /// Its place in the order of scheduling: among items due at the same instant, the lower runs first.
    public let sequence: UInt64

    /// Creates a description of a pending item; the coordinator makes these, tests compare them.
    public init(kind: Kind, queueName: String?, deadline: DispatchTime, sequence: UInt64) {
        self.kind = kind
        self.queueName = queueName
        self.deadline = deadline
        self.sequence = sequence
    }

    /// One line: kind, queue, deadline (seconds of virtual time) and sequence, such as
    /// `periodic timer (every 0.1 seconds) on "main", due at 12.3 s (#42)`.
    public var description: String {
        let what: String
        switch kind {
        case .block: what = "block"
        case .singleTimer: what = "timer"
        case .periodicTimer(let interval): what = "periodic timer (every \(interval))"
        case .job: what = "task job"
        case .sleep: what = "clock sleep"
        }
        let place = queueName.map { " on \"\($0)\"" } ?? ""
        let seconds = Double(deadline.uptimeNanoseconds) / 1_000_000_000
        return "\(what)\(place), due at \(seconds) s (#\(sequence))"
    }
}

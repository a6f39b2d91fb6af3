// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

public import ExecKit

/// A piece of work that a ``TestCoordinator`` holds and has not run yet, as ``TestCoordinator/pendingWork`` lists it.
///
/// A pending item is described by what it is, where it would run, when it is due, its place in the order of
/// scheduling and, when the coordinator records call sites (the default), the source line that scheduled it.
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
    /// The source line that scheduled it (see ``CallSite`` for which line that is), or `nil` when the coordinator was
    /// made with `recordsCallSites: false`, when the toolchain cannot symbolicate (Apple platforms before macOS 26 and
    /// its siblings), or when no frame has source information (code built without debug information, or an optimized
    /// line the compiler folded away: the code after an `await` merged with another closure's, say). In an optimized
    /// build, a call whose return address has line 0 (code merged from several lines) is named by the nearest line
    /// before it in the same function, and a call made in a closure that the compiler inlined into its caller may be
    /// named by the caller's line that passed the closure (the toolchain's `Runtime` module does not always report
    /// inlined frames).
    /// <!-- G-virtual-call-sites-optional -->
    ///
    /// - Cost: the first read of a listed item's call site symbolicates the stack captured when it was scheduled,
    ///   unless its return addresses were looked up before: tens of milliseconds in a large test binary (measured:
    ///   60 to 150 ms in ExecKit's 15 MB debug test binary on Linux, each time a new line is looked up). Later reads,
    ///   and other items scheduled through the same stack, reuse the answer. Reading the other properties costs nothing
    ///   of the kind. <!-- G-virtual-call-site-cost -->
    public var callSite: CallSite? { givenCallSite ?? origin?.callSite }

    private let givenCallSite: CallSite?
    private let origin: RecordedCallSite?

    /// Creates a description of a pending item; the coordinator makes these, tests compare them.
    public init(kind: Kind, queueName: String?, deadline: DispatchTime, sequence: UInt64, callSite: CallSite? = nil) {
        self.kind = kind
        self.queueName = queueName
        self.deadline = deadline
        self.sequence = sequence
        self.givenCallSite = callSite
        self.origin = nil
    }

    /// A pending item whose call site is resolved from `origin` when first read.
    init(kind: Kind, queueName: String?, deadline: DispatchTime, sequence: UInt64, origin: RecordedCallSite?) {
        self.kind = kind
        self.queueName = queueName
        self.deadline = deadline
        self.sequence = sequence
        self.givenCallSite = nil
        self.origin = origin
    }

    /// Whether both describe the same item: same kind, queue, deadline, sequence and call site (resolved, if needed,
    /// only when everything else is equal).
    public static func == (lhs: PendingWork, rhs: PendingWork) -> Bool {
        lhs.kind == rhs.kind && lhs.queueName == rhs.queueName && lhs.deadline == rhs.deadline
            && lhs.sequence == rhs.sequence && lhs.callSite == rhs.callSite
    }

    /// One line: kind, queue, deadline (seconds since the coordinator started, see ``TestCoordinator/elapsed``),
    /// sequence and, if known, the call site, such as
    /// `periodic timer (every 0.1 seconds) on "main", due at 12.3 s (#42), scheduled at PollerTests.swift:17`.
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
        let start = CoordinatorState.start
        let seconds = Double(deadline.uptimeNanoseconds &- min(deadline.uptimeNanoseconds, start)) / 1_000_000_000
        let origin = callSite.map { ", scheduled at \($0)" } ?? ""
        return "\(what)\(place), due at \(seconds) s (#\(sequence))\(origin)"
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// What makes an exploration's run fail on its own, as a plain value: too many steps (a livelock), and an inline
/// `invokeSync` that would wait forever for real (a deadlock), with the callers waiting in one and the queues they hold.
/// A coordinator outside an exploration has no step limit: there, a deadlock stops the program with a message instead.
struct RunWatch: Sendable {
    /// How many more pieces of work may run (`nil`: no limit). Work due once it is zero is not run: the run has gone on
    /// too long, a livelock (see ``livelock``), or it ran into a deadlock.
    private var stepsLeft: Int?
    /// The last pieces of work handed out, while there is a limit: a ring of ``recentCapacity``, the newest at
    /// `recentEnd - 1`.
    private var recentWork: [PendingWork] = []
    private var recentEnd = 0
    private static let recentCapacity = 6
    /// While there is a limit: whether a piece of work was handed out in the run in progress (the newest of
    /// ``recentWork``), what a deadlock report names as the work that waited.
    private var isRunning = false

    /// The piece of work handed out last in the run in progress, `nil` between runs.
    var running: PendingWork? {
        isRunning ? recentWork[(recentEnd + Self.recentCapacity - 1) % Self.recentCapacity] : nil
    }

    /// The recent pieces of work, oldest first.
    private var recentInOrder: [PendingWork] {
        recentWork.count < Self.recentCapacity
            ? recentWork : Array(recentWork[recentEnd...] + recentWork[..<recentEnd])
    }
    /// The last pieces of work that ran before the step limit stopped the run, or `nil` if it did not.
    private(set) var livelock: [PendingWork]?
    /// The first deadlock an inline `invokeSync` ran into, or `nil`. Once there is one, no more work runs.
    private(set) var deadlock: Deadlock?
    /// Callers waiting in an inline `invokeSync`, and the queues they hold meanwhile.
    private(set) var waitingCallers = WaitingCallers()

    init(stepLimit: Int?) {
        stepsLeft = stepLimit
        if stepLimit != nil { recentWork.reserveCapacity(Self.recentCapacity) }  // one allocation, not four
    }

    /// Whether there is a step limit (an exploration's run): only then is work counted as it is handed out.
    var counts: Bool { stepsLeft != nil }

    /// Whether the step limit forbids running work that is due; records the livelock if so.
    mutating func limitReached() -> Bool {
        guard stepsLeft == 0 else { return false }
        if livelock == nil && deadlock == nil { livelock = recentInOrder }
        return true
    }

    /// Counts `pending` as handed out, while there is a limit.
    mutating func handingOut(_ pending: PendingWork) {
        guard let left = stepsLeft else { return }
        stepsLeft = left - 1
        if recentWork.count < Self.recentCapacity {
            recentWork.append(pending)
        } else {
            recentWork[recentEnd] = pending
        }
        recentEnd = (recentEnd + 1) % Self.recentCapacity
        isRunning = true
    }

    /// Ends the run in progress: no work is running.
    mutating func runEnded() {
        isRunning = false
    }

    /// In an exploration's run (a step limit is set), records the first deadlock and stops handing out work, and
    /// returns `true`: the entry goes ahead, so that the caller's `invokeSync` returns and the run ends as a failure.
    /// Outside an exploration, returns `false`: the entry fails and the program stops with a message, as it always did.
    mutating func failsRun(with waits: String) -> Bool {
        guard stepsLeft != nil else { return false }
        // The innermost work running for a waiting caller, else the work this run handed out last.
        if deadlock == nil { deadlock = Deadlock(waits: waits, work: waitingCallers.innermostWork ?? running) }
        stepsLeft = 0
        return true
    }

    /// The cycle of waiting callers that entering `queue` would close, as words, or `nil`.
    func cycle(closingOn queue: SimulatedQueue) -> String? {
        waitingCallers.cycle(closingOn: queue)
    }

    /// Records that the serial queues among `standing` stay held while work runs isolated in `queue` (see
    /// ``WaitingCallers/isolate(in:leaving:work:)``). Returns what ``restore(heldCount:)`` needs.
    mutating func isolate(in queue: SimulatedQueue, leaving standing: [SimulatedQueue]) -> Int {
        waitingCallers.isolate(in: queue, leaving: standing, work: running)
    }

    /// Puts back what ``isolate(in:leaving:)`` changed.
    mutating func restore(heldCount: Int) {
        waitingCallers.restore(count: heldCount)
    }
}

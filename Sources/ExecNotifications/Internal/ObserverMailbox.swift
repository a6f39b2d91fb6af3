// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// The pure state of an observer whose context is not ``Exec/direct``: deliveries wait here in post order and run one
/// at a time, so the observer sees posts in order whatever its context does with concurrent or inline blocks.
///
/// Its owner (``Observer``) holds it under a lock and performs the returned actions after unlocking.
struct ObserverMailbox: Sendable {
    typealias Job = @Sendable () -> Void

    private var pending: [Job] = []
    private var head = 0
    /// A drain is scheduled on the context or running: new jobs only join the queue.
    private var isDraining = false
    /// How many more jobs the running drain may run before it hands the rest off; `nil` between drains. Set, when a
    /// drain asks for its first job, to the number of jobs pending then, so that a drain running on a poster's thread
    /// (a mutex context, or `.main` posted on the main queue) returns after the work it found instead of running
    /// other threads' later posts for as long as they keep coming.
    private var budget: Int?
    private(set) var isCancelled = false

    enum EnqueueAction {
        /// The job joined a queue that is already being drained, or the observer is cancelled: nothing to do.
        case none
        /// Invoke the context with a drain.
        case startDraining
    }

    mutating func enqueue(_ job: @escaping Job) -> EnqueueAction {
        if isCancelled { return .none }
        pending.append(job)
        if isDraining { return .none }
        isDraining = true
        return .startDraining
    }

    enum NextAction {
        /// Run the job, then ask again.
        case run(Job)
        /// The drain is over.
        case stop
        /// The drain used up its budget and jobs remain: schedule a new drain with `invokeAsync` and return. The
        /// mailbox still counts as draining, so no other drain starts and the order stays FIFO.
        case handOff
    }

    /// The next step of the running drain. Once it returns a job, that job counts as started: cancelling does not
    /// take it back.
    mutating func next() -> NextAction {
        if isCancelled || head == pending.count {
            pending.removeAll()
            head = 0
            isDraining = false
            budget = nil
            return .stop
        }
        let remaining = budget ?? (pending.count - head)
        if remaining == 0 {
            budget = nil  // the next drain counts afresh
            return .handOff
        }
        budget = remaining - 1
        let job = pending[head]
        head += 1
        if head > 32 && head * 2 > pending.count {  // keep the array from growing without bound while draining
            pending.removeFirst(head)
            head = 0
        }
        return .run(job)
    }

    /// Marks the observer cancelled, so that no job starts any more, and hands back the jobs still waiting, for the
    /// caller to release after unlocking (their payloads may run arbitrary `deinit`s). Never waits for anything.
    ///
    /// - Returns: Whether the observer was already cancelled, and the dropped jobs.
    mutating func cancel() -> (wasCancelled: Bool, dropped: [Job]) {
        let wasCancelled = isCancelled
        isCancelled = true
        let dropped = pending
        pending = []
        head = 0
        return (wasCancelled, dropped)
    }
}

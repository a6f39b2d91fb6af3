// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch

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
    /// The thread running the observer's block right now, if any.
    private var runningThread: UInt?
    private var cancellationWaiters: [DispatchSemaphore] = []
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
        /// Run the job (the mailbox now records `thread` as running it), then call ``finishedJob()``.
        case run(Job)
        /// The drain is over.
        case stop
    }

    mutating func next(on thread: UInt) -> NextAction {
        if isCancelled || head == pending.count {
            pending.removeAll()
            head = 0
            isDraining = false
            return .stop
        }
        let job = pending[head]
        head += 1
        if head > 32 && head * 2 > pending.count {  // keep the array from growing without bound while draining
            pending.removeFirst(head)
            head = 0
        }
        runningThread = thread
        return .run(job)
    }

    /// The job returned by ``next(on:)`` finished; returns the cancellers to wake.
    mutating func finishedJob() -> [DispatchSemaphore] {
        runningThread = nil
        defer { cancellationWaiters.removeAll() }
        return cancellationWaiters
    }

    enum CancelAction {
        /// Nothing of the observer's block runs now, or it runs on the cancelling thread itself: cancelled.
        case done
        /// The block is running on another thread: wait on the semaphore, it is signalled when the block returns.
        case wait(DispatchSemaphore)
    }

    mutating func cancel(on thread: UInt) -> CancelAction {
        isCancelled = true
        pending.removeAll()
        head = 0
        guard let runningThread, runningThread != thread else { return .done }
        let semaphore = DispatchSemaphore(value: 0)
        cancellationWaiters.append(semaphore)
        return .wait(semaphore)
    }

    /// Cancels without waiting for a running block (the hub is gone; nobody asked to wait).
    mutating func cancelWithoutWaiting() {
        isCancelled = true
        pending.removeAll()
        head = 0
    }
}

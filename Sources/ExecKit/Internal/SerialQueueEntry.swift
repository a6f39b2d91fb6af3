// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims
import Dispatch
import ExecDispatch

/// The one way ExecKit runs work on a serial Dispatch queue (the main queue, a private serial queue) and waits on any
/// queue it may be inside (`invokeSync` of the `.immediate` type): the queue resolved once, its `dispatch_queue_t` and
/// its key in ``EnteredContexts``. Every block, executor job and timer firing
/// that ExecKit puts on a serial queue goes through ``async(_:)-(QueuedWork)``, ``async(_:)-(()->Void)``,
/// ``asyncAfter(_:_:)``, ``sync(waitingWith:_:)`` or, for code the queue already runs, ``run(_:)``, and so runs
/// recorded as inside the queue: a block that entered a queue and then waits on another queue's `sync` still counts
/// as inside it, whichever way it came in.
///
/// `Exec` is one word, so its cases make an entry per call (a look-up of the queue's `dispatch_queue_t`); executors
/// and timer engines keep theirs.
///
/// - Lifetime: the entry does not keep its queue. Whoever holds it keeps the queue alive while submitting (the caller's
///   `Exec`, a task executor's own reference, the context an actor keeps); once submitted, libdispatch keeps the
///   `dispatch_queue_t` alive until the work has run, and the work reads only the key. Where ``RawQueueIdentity``
///   cannot find the `dispatch_queue_t`, the key is the Swift wrapper's address, which a freed wrapper would leave
///   to the next one: the blocks submitted then keep the wrapper until they have run.
package struct SerialQueueEntry: @unchecked Sendable {
    // Unchecked: immutable; `raw` names a thread-safe libdispatch object, and `queue` is read only while its owner
    // keeps it alive (see Lifetime).

    /// The queue's key in the entered-queue record.
    let key: EnteredContexts.Key
    /// The queue's `dispatch_queue_t`, or `nil` where ``RawQueueIdentity`` cannot find it (work then goes through
    /// `queue.async`, a block).
    private let raw: UnsafeRawPointer?
    /// The queue, for Dispatch's Swift API: the fallback above, `asyncAfter`, and a timer source.
    unowned(unsafe) let queue: DispatchQueue

    /// The entry of `queue`, a serial queue (or a `DispatchWorkloop`, for ``sync(waitingWith:_:)``).
    package init(_ queue: DispatchQueue) {
        self.queue = queue
        let raw = RawQueueIdentity.queuePointer(of: queue)
        self.raw = raw
        key = if let raw { EnteredContexts.Key(raw: raw) } else { EnteredContexts.Key(queue) }
    }

    /// The main queue's entry, found once.
    static let main = SerialQueueEntry(mainQueue: GlobalQueues.main)

    private init(mainQueue: DispatchQueue) {
        queue = mainQueue
        raw = execkit_main_queue()
        key = EnteredContexts.mainQueueKey
    }

    /// Runs `body` recorded as inside the queue, for code that already runs on it (a timer source's handler, a block
    /// that Dispatch's Swift API queued).
    @inline(__always)
    func run<Return>(_ body: () throws -> Return) rethrows -> Return {
        try EnteredContexts.entering(key, body)
    }

    /// Queues `body` on the queue, to run recorded as inside it.
    ///
    /// - Ordering and QoS: as `dispatch_async`. Cost: one allocation (a ``QueuedBlock``); the record is a thread-local
    ///   load and two stores.
    func async(_ body: @escaping @Sendable () -> Void) {
        async(QueuedBlock(body, entering: self))
    }

    /// Queues `work`, made for this queue (`QueuedWork(entering: thisEntry)`), to run recorded as inside it.
    func async(_ work: QueuedWork) {
        assert(work.entered == key, "ExecKit: work made for another queue was submitted to \(queue.label)")
        guard let raw else {
            let queue = queue  // kept by the block: its address is the key (see Lifetime)
            return queue.async { withExtendedLifetime(queue) { work.runRecorded() } }
        }
        work.submit(to: raw)
    }

    /// Runs `body` on the queue recorded as inside it, once `deadline` has passed, like `DispatchQueue.asyncAfter`.
    func asyncAfter(_ deadline: DispatchTime, _ body: @escaping @Sendable () -> Void) {
        let (key, queue) = (key, queue)  // the queue kept by the block, for a key that is its address (see Lifetime)
        queue.asyncAfter(deadline: deadline) { withExtendedLifetime(queue) { EnteredContexts.entering(key, body) } }
    }

    /// ``sync(waitingWith:_:)`` with the wait the queue accepts (``QueueWait/accepted(by:)``).
    func sync(_ body: () -> Void) {
        sync(waitingWith: QueueWait.accepted(by: queue), body)
    }

    /// Runs `body` on the queue recorded as inside it, inside the record of the calling thread too, and waits for it:
    /// `DispatchQueue.sync` without the block. The waiting caller lends what it is inside (see ``EnteredContexts``),
    /// the main queue included whenever it runs there, however its block was queued.
    /// The closure, the key and the caller's record travel in a frame of this function, whose address libdispatch
    /// hands back to a C function, so no block is copied and the queue is not retained; the one allocation is the
    /// context that `withoutActuallyEscaping` builds to check, when this returns, that `body` did not escape.
    ///
    /// - Ordering: as `dispatch_sync` (on a serial queue: after every block submitted before it, and exclusively).
    ///   On a `DispatchWorkloop` (Apple platforms), whose `dispatch_sync` crashes inside libdispatch, the wait is
    ///   `dispatch_async_and_wait`, which a workloop accepts and which orders the same way; `wait` chooses (tests reach
    ///   the workloop's wait on Linux through it).
    package func sync(waitingWith wait: QueueWait, _ body: () -> Void) {
        // The caller's record, which the block continues: the caller waits until it has run, so its entries stay valid,
        // and the block may run on another thread (the main queue's, for one).
        let callerRecord = EnteredContexts.currentRecord
        guard DispatchQueue.isMainQueueCurrent else { return sync(waitingWith: wait, lending: callerRecord, body) }
        let main = EnteredContexts.mainQueueKey
        guard key != main else { return sync(waitingWith: wait, lending: callerRecord, body) }
        // The main queue waits for another: a wait that lasts is reported (a deadlock ExecKit cannot see may be why).
        MainQueueWaitWatch.watching {
            guard !EnteredContexts.contains(main) else { return sync(waitingWith: wait, lending: callerRecord, body) }
            // A main-queue block that did not come through ExecKit (`DispatchQueue.main.async`, a run loop's source, a
            // main-actor job): the caller is inside the main queue all the same, and lends it like any queue it
            // entered.
            EnteredContexts.withRecord(callerRecord, extendedBy: main) { record in
                sync(waitingWith: wait, lending: record, body)
            }
        }
    }

    /// ``sync(waitingWith:_:)``, lending `callerRecord` to the block.
    private func sync(waitingWith wait: QueueWait, lending callerRecord: EnteredContexts.Record, _ body: () -> Void) {
        guard let raw else {
            // Only where ExecKit could not find libdispatch's queues (a line on standard error said so at the start);
            // Swift's Linux overlay has no `asyncAndWait`, and Linux has no workloops to need it.
            precondition(
                wait == .sync, "ExecKit: a DispatchWorkloop needs dispatch_async_and_wait, which needs its queue")
            return queue.sync { EnteredContexts.entering(key, after: callerRecord, body) }
        }
        // libdispatch calls the function before the wait returns, so `body` never outlives this call.
        withoutActuallyEscaping(body) { body in
            var work = SyncWork(key: key, callerRecord: callerRecord, body: body)
            withUnsafeMutablePointer(to: &work) {
                switch wait {
                case .sync: execkit_dispatch_sync_f(raw, $0, runSyncWork)
                case .asyncAndWait: execkit_dispatch_async_and_wait_f(raw, $0, runSyncWork)
                }
            }
        }
    }
}

/// How ExecKit waits for a block on a queue.
package enum QueueWait: Sendable {
    /// `dispatch_sync`: the wait for every queue but a workloop.
    case sync
    /// `dispatch_async_and_wait`: the wait a `DispatchWorkloop` accepts.
    case asyncAndWait

    /// The wait `queue` accepts: `asyncAndWait` for a `DispatchWorkloop` (Apple platforms only; a queue that merely
    /// targets a workloop accepts `sync`), `sync` for every other queue.
    ///
    /// - Cost: nothing on Linux; a class check on Apple platforms.
    @inline(__always)
    package static func accepted(by queue: DispatchQueue) -> QueueWait {
        #if canImport(Darwin)
        return queue is DispatchWorkloop ? .asyncAndWait : .sync
        #else
        return .sync
        #endif
    }
}

/// What ``SerialQueueEntry/sync(waitingWith:_:)`` hands libdispatch: it lives in the waiting caller's frame.
private struct SyncWork {
    let key: EnteredContexts.Key
    /// The entered-queue record of the thread that waits for the block.
    let callerRecord: EnteredContexts.Record
    let body: () -> Void
}

/// The C function libdispatch calls for ``SerialQueueEntry/sync(waitingWith:_:)``, on the queue.
private func runSyncWork(_ context: UnsafeMutableRawPointer?) {
    guard let work = context?.assumingMemoryBound(to: SyncWork.self) else { return }
    EnteredContexts.entering(work.pointee.key, after: work.pointee.callerRecord, work.pointee.body)
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims
import ExecDispatch

/// The timers of one Dispatch queue: one `DispatchSourceTimer`, armed for the earliest deadline, in front of a heap of
/// pending timers.
///
/// Why: a `DispatchSource` per timer costs about 4,200 instructions and 6 allocations to make, arm and cancel, and
/// about 430 bytes while pending. Most timers are timeouts that are cancelled before they fire; here scheduling one is
/// an allocation, a lock and a heap insert, and cancelling it a lock and a heap removal. Dispatch is touched only when
/// the new timer is due before the source's current deadline (or needs a tighter leeway).
///
/// Firing. The source fires on the engine's queue. A *serial* engine (the main queue, private serial queues) takes the
/// due timers out one at a time, earliest deadline first and equal deadlines in scheduling order, and runs each
/// handler right there, with the lock released; a timer cancelled by an earlier handler of the same batch is no longer
/// in the heap, so it does not run. A *concurrent* engine (global queues, concurrent private queues) takes every due
/// timer at once and runs each in a job of its own on the queue (a `dispatch_async_f` with no allocation), so handlers
/// do not wait for each other, and a slow handler never holds up the source (and with it every later timer of the
/// engine).
///
/// Periodic timers are put back when their handler returns, at the first multiple of the period after the current
/// time: no drift, missed periods skipped, and never two runs of one handler at once.
///
/// - Thread-safety: every method may be called from any thread; all state is guarded by `lock`. User code (handlers,
///   and whatever releasing a handler runs) never runs with the lock held.
final class TimerEngine: @unchecked Sendable {
    // Unchecked: every `var` is read and written only with `lock` held. The same lock makes the runtime's exclusivity
    // checks redundant, so they are turned off (`@exclusivity(unchecked)`): they cost about 60 instructions a call.

    /// How the engine runs due handlers.
    enum Firing {
        /// One at a time on the source's (serial) queue, in deadline order.
        case serial
        /// The source's queue is concurrent: several due handlers run in parallel.
        case concurrent
    }

    /// A periodic timer whose handler is running, identified by its address and its sequence when it was taken out,
    /// so that a timer freed meanwhile (and its address reused) is never mistaken for it.
    private struct RunningTimer {
        let timer: Unmanaged<EngineTimer>
        let sequence: UInt64
    }

    private let lock = PThreadMutex()
    @exclusivity(unchecked) private var heap = TimerHeap()
    @exclusivity(unchecked) private var running: [RunningTimer] = []
    /// A concurrent engine's due timers, each waiting for the job that runs it (see ``fireConcurrently(queue:)``);
    /// the entries before ``readyHead`` have been taken.
    @exclusivity(unchecked) private var ready: [ReadyTimer] = []
    @exclusivity(unchecked) private var readyHead = 0
    /// The engine's one Dispatch timer source, made when first armed (and, on a private queue, dropped when idle).
    /// Class-bound: a copy of the reference is a retain, where a copy of a plain `any DispatchSourceTimer` goes through
    /// the value witnesses of its opaque existential box (about 150 instructions per cancel on a private queue's
    /// engine, callgrind).
    @exclusivity(unchecked) private var source: (any AnyObject & DispatchSourceTimer)?
    /// The deadline the source is armed for, `UInt64.max` when it is not armed (never made, fired, or torn down).
    @exclusivity(unchecked) private var armedDeadline = UInt64.max
    /// The leeway the source is armed with, in nanoseconds.
    @exclusivity(unchecked) private var armedLeeway: UInt64 = 0
    @exclusivity(unchecked) private var nextSequence: UInt64 = 0
    /// Whether the source is armed only to wake an idle private-queue engine (``becameIdle()``), not for a timer;
    /// cleared whenever the source is armed for a timer or fires.
    @exclusivity(unchecked) private var isArmedForIdle = false
    private let firing: Firing
    /// Where the timers fire, for a shared engine (the main queue's, the global queues'), kept for the process; `nil`
    /// for a private queue's engine, which the queue owns (as a queue-specific value). That engine keeps no
    /// reference to a `DispatchQueue` of its own: each `schedule` passes the wrapper its caller holds, and the source's
    /// handler keeps the one the source was made with. (On Linux two wrappers can stand for one queue, as every
    /// `DispatchQueue.main` does; an engine that kept the first one unowned read it after it was freed.)
    private let sharedQueue: DispatchQueue?
    /// Whether firings run inside `EnteredContexts.entering(queue)`, so a handler on a private serial queue is known
    /// to be inside it (an `invokeSync` on that queue from the handler is then caught as re-entry, not a deadlock).
    private let recordsEntry: Bool
    /// Whether the source is cancelled and dropped when no timer is pending. Private queues need it: the source
    /// retains its queue, and the queue (through its queue-specific value) retains this engine.
    private let releasesSourceWhenIdle: Bool

    /// How long an idle private-queue engine keeps its source before letting go of it (and so of the queue): a loop
    /// of schedule+cancel on one queue then makes a new source at most this often, never once per timer.
    static let idleGrace: UInt64 = 100_000_000

    /// - Parameter sharedQueue: The queue of a shared engine, kept for the process; `nil` for a private queue's
    ///   engine, whose callers pass the queue to each `schedule`.
    init(sharedQueue: DispatchQueue?, firing: Firing, recordsEntry: Bool, releasesSourceWhenIdle: Bool) {
        self.sharedQueue = sharedQueue
        self.firing = firing
        self.recordsEntry = recordsEntry
        self.releasesSourceWhenIdle = releasesSourceWhenIdle
    }

    /// Schedules `handler` on the engine's queue after `interval`, then every `period` nanoseconds if `period` is not
    /// zero.
    ///
    /// - Parameter queue: The engine's queue, as the caller holds it; `nil` for a shared engine, which keeps its own.
    /// - Complexity: O(log n) for n pending timers, plus a Dispatch call when the new deadline is the earliest.
    func schedule(
        interval: Duration,
        period: UInt64,
        leeway: Duration,
        queue: DispatchQueue? = nil,
        handler: @escaping @Sendable () -> Void
    ) -> EngineTimer {
        let now = DispatchTime.now().uptimeNanoseconds
        let timer = EngineTimer(
            engine: self, deadline: Self.deadline(now, plus: interval), period: period,
            leeway: UInt32(clamping: Self.nanoseconds(leeway)), handler: handler)
        return add(timer, queue: queue)
    }

    /// `schedule` at an absolute deadline (uptime nanoseconds), for tests that need equal deadlines.
    func schedule(
        deadline: UInt64,
        period: UInt64 = 0,
        leeway: UInt32,
        queue: DispatchQueue? = nil,
        handler: @escaping @Sendable () -> Void
    ) -> EngineTimer {
        let timer = EngineTimer(
            engine: self, deadline: min(deadline, Self.latestDeadline), period: period, leeway: leeway,
            handler: handler)
        return add(timer, queue: queue)
    }

    /// Puts a new `timer` in the heap and re-arms the source if it must fire earlier; takes the lock.
    ///
    /// `queue` stays optional down to ``makeSource(queue:)``, the only place that needs it: resolving it here against
    /// ``sharedQueue`` would retain and release the shared queue on every schedule (about 140 instructions, callgrind).
    private func add(_ timer: EngineTimer, queue: DispatchQueue?) -> EngineTimer {
        let reference = Unmanaged.passUnretained(timer)
        lock.unbalancedLock()
        insert(reference)
        armForInserted(reference, queue: queue)
        lock.unbalancedUnlock()
        return timer
    }

    /// Removes `timer` and releases its handler (after unlocking). Idempotent. Called by `cancel()` and `deinit`.
    func cancel(_ timer: EngineTimer) {
        // Finished is final, and was stored with release ordering after the handler was let go: nothing to do. This
        // spares `deinit` after an explicit `cancel()` (or after a one-shot fired) the lock.
        if timer.index.load(ordering: .acquiring) == EngineTimer.finished { return }
        lock.unbalancedLock()
        let index = timer.index.load(ordering: .relaxed)
        if index == EngineTimer.finished {
            lock.unbalancedUnlock()
            return
        }
        if index >= 0 {
            heap.remove(at: Int(index))
        } else if index == EngineTimer.waiting {
            // Due, waiting in the ready list: its job must find nothing (the timer may be freed before the job runs).
            forgetReady(Unmanaged.passUnretained(timer), sequence: timer.sequence)
        } else {
            // Running (or waiting in the ready list, if periodic): the handler's return must not put it back, and a job
            // that has not started it yet finds it gone from `running`.
            forgetRunning(Unmanaged.passUnretained(timer), sequence: timer.sequence)
        }
        if heap.isEmpty && releasesSourceWhenIdle && !isArmedForIdle { becameIdle() }
        let handler = timer.handler
        timer.handler = nil
        timer.index.store(EngineTimer.finished, ordering: .releasing)
        lock.unbalancedUnlock()
        Self.release(handler)  // outside the lock: the handler's captures may run code that cancels timers
    }

    /// Ends `handler`'s lifetime here, not earlier. Not `withExtendedLifetime`: passing a closure to its generic
    /// parameter wraps it in a reabstraction thunk, a 32-byte allocation per call.
    @inline(never)
    private static func release(_ handler: consuming (@Sendable () -> Void)?) {}

    /// Empties the ready-list entry of a one-shot that was waiting there; lock held.
    private func forgetReady(_ timer: Unmanaged<EngineTimer>, sequence: UInt64) {
        for position in readyHead..<ready.count
        where ready[position].timer?.toOpaque() == timer.toOpaque() && ready[position].sequence == sequence {
            ready[position].timer = nil
            return
        }
    }

    /// Takes a running periodic timer off `running`; lock held.
    ///
    /// - Returns: Whether it was there (and so is alive, with its handler's return still to come).
    @discardableResult
    private func forgetRunning(_ timer: Unmanaged<EngineTimer>, sequence: UInt64) -> Bool {
        for position in running.indices
        where running[position].timer.toOpaque() == timer.toOpaque() && running[position].sequence == sequence {
            running.remove(at: position)
            return true
        }
        return false
    }

    // MARK: - Arming (lock held)

    private func insert(_ timer: Unmanaged<EngineTimer>) {
        timer._withUnsafeGuaranteedRef { $0.sequence = nextSequence }
        nextSequence &+= 1
        heap.insert(timer)
    }

    /// Re-arms the source if `timer`, just inserted, must fire earlier (or more punctually) than it is armed for.
    private func armForInserted(_ timer: Unmanaged<EngineTimer>, queue: DispatchQueue?) {
        if armedDeadline == .max {
            armForEarliest(queue: queue)
            return
        }
        let (deadline, latest) = timer._withUnsafeGuaranteedRef { ($0.deadline, $0.deadline + UInt64($0.leeway)) }
        let armedLatest = armedDeadline + armedLeeway
        if deadline < armedDeadline {
            // Every timer already in the window could wait until `armedLatest`; so can the new window.
            arm(deadline: deadline, leeway: min(latest, armedLatest) - deadline, queue: queue)
        } else if latest < armedLatest {
            arm(deadline: armedDeadline, leeway: latest - armedDeadline, queue: queue)
        }
    }

    /// Arms the source for the earliest pending timer, with the smallest leeway that keeps every timer due in the
    /// window within its own leeway; or, when nothing is pending, lets an idle private queue go.
    private func armForEarliest(queue: DispatchQueue?) {
        guard let first = heap.first else {
            becameIdle()
            return
        }
        let (deadline, leeway) = first._withUnsafeGuaranteedRef { ($0.deadline, $0.leeway) }
        var limit = UInt64(leeway)
        var budget = 64
        narrowLeeway(&limit, from: 0, deadline: deadline, budget: &budget)
        arm(deadline: deadline, leeway: limit, queue: queue)
    }

    /// Lowers `limit` (the latest firing, as an offset from `deadline`) so that every timer in the subtree at
    /// `position` that would be due by then fires within its leeway. Subtrees whose root is due after the window are
    /// skipped (their timers are later still). After `budget` timers, the window is closed before the next one
    /// instead: always safe, merely less coalescing.
    private func narrowLeeway(_ limit: inout UInt64, from position: Int, deadline: UInt64, budget: inout Int) {
        let (timerDeadline, leeway) = heap[position]._withUnsafeGuaranteedRef { ($0.deadline, $0.leeway) }
        let offset = timerDeadline - deadline
        guard offset <= limit else { return }
        if budget == 0 {
            limit = offset
            return
        }
        budget -= 1
        limit = min(limit, offset + UInt64(leeway))
        let firstChild = position * 4 + 1
        guard firstChild < heap.count else { return }
        for child in firstChild..<min(firstChild + 4, heap.count) {
            narrowLeeway(&limit, from: child, deadline: deadline, budget: &budget)
        }
    }

    /// Arms the source, making it if there is none (on `queue`, the engine's queue as some caller holds it, or on
    /// ``sharedQueue`` when that is `nil`).
    private func arm(deadline: UInt64, leeway: UInt64, queue: DispatchQueue?) {
        let source = self.source ?? makeSource(queue: queue)
        isArmedForIdle = false
        armedDeadline = deadline
        armedLeeway = leeway
        source.schedule(
            deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: .nanoseconds(Int(clamping: leeway)))
    }

    private func makeSource(queue: DispatchQueue?) -> any AnyObject & DispatchSourceTimer {
        guard let queue = queue ?? sharedQueue else {
            preconditionFailure("ExecKit: a private queue's timer engine was given no queue")
        }
        // Every Dispatch source is an object (`DispatchSource` on Linux, a dispatch object on Apple platforms).
        guard let source = DispatchSource.makeTimerSource(queue: queue) as? any AnyObject & DispatchSourceTimer else {
            preconditionFailure("ExecKit: DispatchSource.makeTimerSource returned a timer source that is not an object")
        }
        // The handler keeps the engine (and the queue) alive while the source exists; tearing the source down
        // releases both.
        source.setEventHandler { self.sourceFired(queue: queue) }
        source.resume()
        self.source = source
        return source
    }

    /// Nothing is pending. A private-queue engine lets its source (and so the queue) go soon: now if the source is
    /// not armed, else by re-arming it to wake within ``idleGrace`` and find nothing.
    ///
    /// Once armed for that wake-up, a later idle moment before it (the next schedule+cancel of a loop) has nothing to
    /// do: the source will wake within the grace anyway. That spares it a clock read and the heap check.
    private func becameIdle() {
        guard releasesSourceWhenIdle, !isArmedForIdle, let source, running.isEmpty else { return }
        heap.shrinkIfEmpty()
        if armedDeadline == .max {
            source.cancel()
            self.source = nil
            return
        }
        let soon = DispatchTime.now().uptimeNanoseconds + Self.idleGrace
        if armedDeadline > soon {
            armedDeadline = soon
            armedLeeway = Self.idleGrace
            source.schedule(
                deadline: DispatchTime(uptimeNanoseconds: soon), leeway: .nanoseconds(Int(Self.idleGrace)))
        }
        isArmedForIdle = true
    }

    // MARK: - Firing

    /// The source's event handler, on the engine's queue.
    private func sourceFired(queue: DispatchQueue) {
        switch firing {
        case .serial where recordsEntry: EnteredContexts.entering(queue) { fireSerially(queue: queue) }
        case .serial: fireSerially(queue: queue)
        case .concurrent: fireConcurrently(queue: queue)
        }
    }

    /// Runs the due timers one at a time, in (deadline, sequence) order, each taken out of the heap right before its
    /// handler runs: a timer that an earlier handler cancelled is gone by then.
    private func fireSerially(queue: DispatchQueue) {
        lock.unbalancedLock()
        armedDeadline = .max  // the source has fired; it is armed again below
        isArmedForIdle = false
        let now = DispatchTime.now().uptimeNanoseconds
        while let first = heap.first, first._withUnsafeGuaranteedRef({ $0.deadline <= now }) {
            let due = takeFirstForFiring()
            let (periodic, sequence) = (due.periodic, due.sequence)
            lock.unbalancedUnlock()
            Self.call(consume due)
            lock.unbalancedLock()
            if let periodic { reschedule(periodic, sequence: sequence) }
        }
        armForEarliest(queue: queue)
        lock.unbalancedUnlock()
    }

    /// Takes every due timer at once into ``ready``, then submits one job per timer to `queue`, each of which takes one
    /// timer from ``ready`` and runs it: none runs inside the source's handler, which would hold up every later firing
    /// of the engine until it returned, and handlers run in parallel.
    ///
    /// - Cost: no allocation per timer. Each job is a function-and-context submission (`dispatch_async_f`) whose
    ///   context is this engine (a retain); the due timers wait in ``ready``, an array the engine keeps between
    ///   firings. (A closure handed to `queue.async` per timer cost a closure context and a block.)
    private func fireConcurrently(queue: DispatchQueue) {
        lock.unbalancedLock()
        armedDeadline = .max
        isArmedForIdle = false
        let now = DispatchTime.now().uptimeNanoseconds
        var count = 0
        while let first = heap.first, first._withUnsafeGuaranteedRef({ $0.deadline <= now }) {
            ready.append(takeFirstForReadyList(queue: queue))
            count += 1
        }
        armForEarliest(queue: queue)
        lock.unbalancedUnlock()
        guard count > 0 else { return }
        guard let rawQueue = RawQueueIdentity.queuePointer(of: queue) else {
            for _ in 0..<count { queue.async { self.runOneReady() } }
            return
        }
        for _ in 0..<count {
            execkit_dispatch_async_f(rawQueue, Unmanaged.passRetained(self).toOpaque(), runReadyTimer)
        }
    }

    /// Takes one timer from ``ready`` and runs it, unless it was cancelled while it waited there; one call per timer
    /// that ``fireConcurrently(queue:)`` put there.
    fileprivate func runOneReady() {
        lock.unbalancedLock()
        let entry = ready[readyHead]
        ready[readyHead] = ReadyTimer(timer: nil, sequence: 0, queue: nil)
        let due = claim(entry)
        readyHead += 1
        if readyHead == ready.count {
            // Every job has taken its timer: start over, keeping the storage unless a large burst grew it.
            ready.removeAll(keepingCapacity: ready.capacity <= 1_024)
            readyHead = 0
        } else if readyHead >= 64 && readyHead > ready.count / 2 {
            // Firings keep coming while a backlogged queue runs the jobs: drop the taken half, so the list never
            // grows with the number of timers fired, only with the number waiting.
            ready.removeFirst(readyHead)
            readyHead = 0
        }
        lock.unbalancedUnlock()
        guard let queue = entry.queue, let due else { return }
        run(due, queue: queue)
    }

    /// What a job taking `entry` out of the ready list runs: the one-shot's handler (taken, for good) or a copy of the
    /// periodic timer's, or `nil` when the timer was cancelled (or freed) while it waited. Lock held.
    private func claim(_ entry: ReadyTimer) -> DueTimer? {
        guard let reference = entry.timer else { return nil }  // a cancelled one-shot, or an emptied entry
        if entry.isPeriodic { return claimPeriodic(reference, sequence: entry.sequence) }
        // A one-shot still listed is alive: cancelling it (or its deinit) would have emptied the entry under this lock.
        return reference._withUnsafeGuaranteedRef { timer in
            let handler = timer.handler
            timer.handler = nil
            timer.index.store(EngineTimer.finished, ordering: .releasing)
            return DueTimer(handler: handler, periodic: nil, sequence: entry.sequence)
        }
    }

    /// A periodic timer's firing from the ready list, if it is still listed as running (not cancelled or freed since it
    /// was put there; only then is it dereferenced). Lock held.
    private func claimPeriodic(_ reference: Unmanaged<EngineTimer>, sequence: UInt64) -> DueTimer? {
        guard running.contains(where: { $0.timer.toOpaque() == reference.toOpaque() && $0.sequence == sequence })
        else { return nil }
        let handler = reference._withUnsafeGuaranteedRef { $0.handler }
        return DueTimer(handler: handler, periodic: reference, sequence: sequence)
    }

    /// Calls `handler` and releases it (with whatever it captures, whose `deinit` may cancel timers) before
    /// returning, so that the caller can take the lock again: a consumed parameter dies in the callee.
    @inline(never)
    private static func call(_ due: consuming DueTimer) {
        due.handler?()
    }

    /// Runs a timer taken out by ``fireConcurrently(queue:)``, then puts it back if it is periodic.
    private func run(_ due: consuming DueTimer, queue: DispatchQueue) {
        let (periodic, sequence) = (due.periodic, due.sequence)
        Self.call(consume due)
        guard let periodic else { return }
        lock.unbalancedLock()
        if reschedule(periodic, sequence: sequence) {
            armForInserted(periodic, queue: queue)
        } else if heap.isEmpty {
            becameIdle()
        }
        lock.unbalancedUnlock()
    }

    /// A due timer of a concurrent engine, waiting in ``ready`` for the job that runs it, with the queue it fires on.
    /// The timer is not retained (releasing its last handle still cancels it): a one-shot's `cancel` empties its entry
    /// under the lock before the timer can be freed, and a periodic one is dereferenced only while `running` lists it
    /// with this sequence. `timer` and `queue` are `nil` once taken (or, for `timer`, cancelled).
    private struct ReadyTimer {
        var timer: Unmanaged<EngineTimer>?
        let sequence: UInt64
        var isPeriodic = false
        let queue: DispatchQueue?
    }

    /// A timer taken out of the heap to fire: what its firing needs, so that the timer itself (which may be freed
    /// meanwhile) is not touched outside the lock.
    private struct DueTimer: @unchecked Sendable {
        // Unchecked: `periodic` is an unretained reference only dereferenced with the engine's lock held, after
        // `running` showed the timer is still alive.
        let handler: (@Sendable () -> Void)?
        /// The timer, for a periodic one (to put it back); `nil` for a one-shot.
        let periodic: Unmanaged<EngineTimer>?
        let sequence: UInt64
    }

    /// Takes the earliest timer out of the heap into a ready-list entry, keeping its handler there until the job that
    /// runs it takes it, so that `cancel()` still reaches it: a one-shot is marked waiting, a periodic one listed as
    /// running. Lock held.
    private func takeFirstForReadyList(queue: DispatchQueue) -> ReadyTimer {
        let reference = heap.removeFirst()
        return reference._withUnsafeGuaranteedRef { timer in
            if timer.period == 0 {
                timer.index.store(EngineTimer.waiting, ordering: .relaxed)
            } else {
                timer.index.store(EngineTimer.running, ordering: .relaxed)
                running.append(RunningTimer(timer: reference, sequence: timer.sequence))
            }
            return ReadyTimer(timer: reference, sequence: timer.sequence, isPeriodic: timer.period != 0, queue: queue)
        }
    }

    /// Takes the earliest timer out of the heap and marks it firing: a one-shot gives up its handler for good, a
    /// periodic timer lends a copy and is listed as running. Lock held.
    private func takeFirstForFiring() -> DueTimer {
        let reference = heap.removeFirst()
        return reference._withUnsafeGuaranteedRef { timer in
            if timer.period == 0 {
                let handler = timer.handler
                timer.handler = nil
                timer.index.store(EngineTimer.finished, ordering: .releasing)
                return DueTimer(handler: handler, periodic: nil, sequence: timer.sequence)
            }
            timer.index.store(EngineTimer.running, ordering: .relaxed)
            running.append(RunningTimer(timer: reference, sequence: timer.sequence))
            return DueTimer(handler: timer.handler, periodic: reference, sequence: timer.sequence)
        }
    }

    /// Puts a periodic timer whose handler returned back into the heap, at the first multiple of its period after
    /// now, unless it was cancelled or freed meanwhile (then it is no longer in `running`). Lock held; the caller
    /// re-arms.
    ///
    /// - Returns: Whether the timer went back into the heap.
    @discardableResult
    private func reschedule(_ reference: Unmanaged<EngineTimer>, sequence: UInt64) -> Bool {
        guard forgetRunning(reference, sequence: sequence) else { return false }
        let now = DispatchTime.now().uptimeNanoseconds
        reference._withUnsafeGuaranteedRef { timer in
            var next = timer.deadline &+ timer.period
            if next <= now {
                // Skip the missed periods: the next multiple of the period after now.
                let missed = (now - timer.deadline) / timer.period
                next = timer.deadline &+ (missed + 1) &* timer.period
            }
            timer.deadline = next < timer.deadline ? Self.latestDeadline : min(next, Self.latestDeadline)
        }
        insert(reference)
        return true
    }

    // MARK: - Time arithmetic

    /// Deadlines are capped here (about 146 years of uptime), so sums with leeways and periods never overflow.
    static let latestDeadline = UInt64.max / 2

    /// `now + interval`, where a negative interval means now.
    static func deadline(_ now: UInt64, plus interval: Duration) -> UInt64 {
        min(now &+ UInt64(nanoseconds(interval)), latestDeadline)
    }

    /// `duration` in whole nanoseconds (rounded toward zero), clamped to `0...Int64.max`; see
    /// `Duration.saturatingNanoseconds` (ExecDispatch) for why not `Duration.components`.
    static func nanoseconds(_ duration: Duration) -> Int64 {
        Int64(clamping: duration.saturatingNanoseconds)
    }
}

/// The C function libdispatch calls for each job of a concurrent engine's firing: runs one ready timer, then releases
/// the engine that the submission retained.
private func runReadyTimer(_ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<TimerEngine>.fromOpaque(context).takeRetainedValue().runOneReady()
}

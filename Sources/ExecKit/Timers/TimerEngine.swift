// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims
import ExecDispatch
@_spi(ExecTesting) import ExecMutex

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
/// The engine carries out effects only (the lock, the source, the jobs, the calls); every decision is made by its
/// ``TimerSchedule``, which is tested without Dispatch.
///
/// - Thread-safety: every method may be called from any thread; all state is guarded by `lock`. User code (handlers,
///   and whatever releasing a handler runs) never runs with the lock held.
final class TimerEngine: QueuedWork, @unchecked Sendable {
    // Unchecked: `state` and `source` are read and written only with `lock` held. The same lock makes the runtime's
    // exclusivity checks redundant, so they are turned off (`@exclusivity(unchecked)`): they cost about 60
    // instructions a call.

    /// How the engine runs due handlers.
    enum Firing {
        /// One at a time on the source's (serial) queue, in deadline order, each recorded as inside the queue (through
        /// its ``SerialQueueEntry``): a handler is known to be inside its queue (an `invokeSync` on that queue
        /// from the handler is then caught as re-entry, not a deadlock).
        case serial
        /// The source's queue is concurrent: several due handlers run in parallel.
        case concurrent
    }

    private let lock = PThreadMutex(type: .normal, observed: false)
    /// What the engine knows: the timers, and the state its source should be in (see ``TimerSchedule``).
    @exclusivity(unchecked) private var state: TimerSchedule
    /// The engine's one Dispatch timer source, made when first armed (and, on a private queue, dropped when idle).
    /// Class-bound: a copy of the reference is a retain, where a copy of a plain `any DispatchSourceTimer` goes through
    /// the value witnesses of its opaque existential box (about 150 instructions per cancel on a private queue's
    /// engine, callgrind).
    @exclusivity(unchecked) private var source: (any AnyObject & DispatchSourceTimer)?
    private let firing: Firing
    /// Where the timers fire, for a shared engine (the main queue's, the global queues'), kept for the process; `nil`
    /// for a private queue's engine, which the queue owns (as a queue-specific value). That engine keeps no
    /// reference to a `DispatchQueue` of its own: each `schedule` passes the wrapper its caller holds, and the source's
    /// handler keeps the one the source was made with. (On Linux two wrappers can stand for one queue, as every
    /// `DispatchQueue.main` does; an engine that kept the first one unowned read it after it was freed.) A private
    /// queue's engine lets its source go when idle: the source retains the queue, which retains the engine.
    private let sharedQueue: DispatchQueue?

    /// - Parameter sharedQueue: The queue of a shared engine, kept for the process; `nil` for a private queue's
    ///   engine, whose callers pass the queue to each `schedule`.
    init(sharedQueue: DispatchQueue?, firing: Firing) {
        self.sharedQueue = sharedQueue
        self.firing = firing
        self.state = TimerSchedule(releasesSourceWhenIdle: sharedQueue == nil)
        super.init(entering: nil)
    }

    /// Schedules `handler` on the engine's queue after `interval`, then every `period` nanoseconds if `period` is not
    /// zero.
    ///
    /// - Parameter queue: The engine's queue, as the caller holds it; `nil` for a shared engine, which keeps its own.
    /// - Complexity: O(log n) for n pending timers, plus a Dispatch call when the new deadline is the earliest.
    /// - Cost: inlined into the caller, so that constant durations (`.seconds(1)`) fold to nanoseconds at compile
    ///   time; out of line, each 128-bit division costs about 25 instructions.
    @inline(__always)
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
            engine: self, deadline: min(deadline, TimerSchedule.latestDeadline), period: period, leeway: leeway,
            handler: handler)
        return add(timer, queue: queue)
    }

    /// Puts a new `timer` in the schedule and re-arms the source if it must fire earlier; takes the lock.
    ///
    /// `queue` stays optional down to ``makeSource(queue:)``, the only place that needs it: resolving it here against
    /// ``sharedQueue`` would retain and release the shared queue on every schedule (about 140 instructions, callgrind).
    @inline(__always)
    private func add(_ timer: EngineTimer, queue: DispatchQueue?) -> EngineTimer {
        lock.unbalancedLock()
        perform(state.insert(Unmanaged.passUnretained(timer)), queue: queue)
        lock.unbalancedUnlock()
        return timer
    }

    /// Removes `timer` and releases its handler (after unlocking). Idempotent. Called by `cancel()` and `deinit`.
    func cancel(_ timer: EngineTimer) {
        // Finished is final, and was stored with release ordering after the handler was let go: nothing to do. This
        // spares `deinit` after an explicit `cancel()` (or after a one-shot fired) the lock.
        if timer.index.load(ordering: .acquiring) == EngineTimer.finished { return }
        lock.unbalancedLock()
        let (handler, action) = state.cancel(Unmanaged.passUnretained(timer)) { DispatchTime.now().uptimeNanoseconds }
        perform(action, queue: nil)  // an idle engine's: its source exists, or goes
        lock.unbalancedUnlock()
        Self.release(handler)  // outside the lock: the handler's captures may run code that cancels timers
    }

    /// Ends `handler`'s lifetime here, not earlier. Not `withExtendedLifetime`: passing a closure to its generic
    /// parameter wraps it in a reabstraction thunk, a 32-byte allocation per call.
    @inline(never)
    private static func release(_ handler: consuming (@Sendable () -> Void)?) {}

    // MARK: - The source (lock held)

    /// Brings the source in line with the schedule. `queue` is needed only to make a source, on a private queue.
    @inline(__always)
    private func perform(_ action: TimerSchedule.SourceAction, queue: DispatchQueue?) {
        switch action {
        case .keep: return
        case .arm:
            let source = self.source ?? makeSource(queue: queue)
            source.schedule(
                deadline: DispatchTime(uptimeNanoseconds: state.armedDeadline),
                leeway: .nanoseconds(Int(clamping: state.armedLeeway)))
        case .tearDown:
            source?.cancel()
            source = nil
        }
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

    // MARK: - Firing

    /// The source's event handler, on the engine's queue.
    private func sourceFired(queue: DispatchQueue) {
        switch firing {
        case .serial: SerialQueueEntry(queue).run { fireSerially(queue: queue) }
        case .concurrent: fireConcurrently(queue: queue)
        }
    }

    /// Runs the due timers one at a time, in (deadline, sequence) order, each taken out of the heap right before its
    /// handler runs: a timer that an earlier handler cancelled is gone by then.
    private func fireSerially(queue: DispatchQueue) {
        lock.unbalancedLock()
        state.sourceFired()
        let now = Self.now()
        while let due = state.takeNextDue(now: now) {
            let (periodic, sequence) = (due.periodic, due.sequence)
            lock.unbalancedUnlock()
            Self.call(consume due)
            lock.unbalancedLock()
            if let periodic { state.reschedule(periodic, sequence: sequence, now: Self.now()) }
        }
        perform(state.armForEarliest(now: Self.now), queue: queue)
        lock.unbalancedUnlock()
    }

    /// Moves every due timer at once into the schedule's ready list, then submits one job per timer to `queue`, each of
    /// which takes one timer from the list and runs it: none runs inside the source's handler, which would hold up
    /// every later firing of the engine until it returned, and handlers run in parallel. A timer cancelled while it
    /// waits in the list is not run: `cancel()` empties its entry.
    ///
    /// - Cost: no allocation per timer. Each job is this engine, submitted as a ``QueuedWork`` (a retain); the due
    ///   timers wait in the ready list, which the engine keeps between firings. (A closure handed to `queue.async` per timer cost a closure context and a block.)
    private func fireConcurrently(queue: DispatchQueue) {
        lock.unbalancedLock()
        state.sourceFired()
        let count = state.moveDueToReady(now: Self.now())
        perform(state.armForEarliest(now: Self.now), queue: queue)
        lock.unbalancedUnlock()
        guard count > 0 else { return }
        guard let rawQueue = RawQueueIdentity.queuePointer(of: queue) else {
            for _ in 0..<count { queue.async { self.runOneReady() } }
            return
        }
        for _ in 0..<count { submit(to: rawQueue) }
    }

    /// One job of ``fireConcurrently(queue:)``: runs one ready timer.
    override func run() { runOneReady() }

    /// Takes one timer from the ready list and runs it, unless it was cancelled while it waited there; then puts it
    /// back if it is periodic. One call per timer that ``fireConcurrently(queue:)`` listed.
    fileprivate func runOneReady() {
        lock.unbalancedLock()
        let due = state.takeReady()
        lock.unbalancedUnlock()
        guard let due else { return }
        let (periodic, sequence) = (due.periodic, due.sequence)
        Self.call(consume due)
        guard let periodic else { return }
        lock.unbalancedLock()
        // While a periodic timer is running the source stays (an idle engine waits for `running` to empty), so re-arming
        // needs no queue.
        perform(state.periodicReturned(periodic, sequence: sequence, now: Self.now()), queue: nil)
        lock.unbalancedUnlock()
    }

    /// Calls `handler` and releases it (with whatever it captures, whose `deinit` may cancel timers) before
    /// returning, so that the caller can take the lock again: a consumed parameter dies in the callee.
    @inline(never)
    private static func call(_ due: consuming TimerSchedule.DueTimer) {
        due.handler?()
    }

    // MARK: - Time arithmetic

    /// The current uptime in nanoseconds, the engine's clock.
    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// `now + interval`, where a negative interval means now; capped at ``TimerSchedule/latestDeadline``.
    static func deadline(_ now: UInt64, plus interval: Duration) -> UInt64 {
        min(now &+ UInt64(nanoseconds(interval)), TimerSchedule.latestDeadline)
    }

    /// `duration` in whole nanoseconds (rounded toward zero), clamped to `0...Int64.max`; see
    /// `Duration.saturatingNanoseconds` (ExecDispatch) for why not `Duration.components`.
    static func nanoseconds(_ duration: Duration) -> Int64 {
        Int64(clamping: duration.saturatingNanoseconds)
    }
}

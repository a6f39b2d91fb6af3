// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// Everything a ``TimerEngine`` knows, and none of what it does: the pending timers, the due ones waiting for a job or
/// running, and a model of the engine's Dispatch source (armed for when, with what leeway, or absent). Each change
/// returns the ``SourceAction`` that keeps the real source in step with the model, and the handlers it takes out, for
/// the engine to carry out with its lock released where user code may run.
///
/// No clock, no Dispatch, no lock: time comes in as arguments, so the schedule is tested on its own (coalescing, the
/// idle wake-up, cancelling a waiting firing, periodic rescheduling) against a simple model.
///
/// Timer states (``EngineTimer/index``): pending in ``heap`` (its position), ``EngineTimer/waiting`` (a due one-shot
/// in ``ready``), ``EngineTimer/running`` (a due periodic timer in ``ready`` or running, listed in ``running``), and
/// ``EngineTimer/finished`` (cancelled, or a one-shot that fired; final).
///
/// Not thread-safe: the engine touches it only with its lock held.
struct TimerSchedule: ~Copyable {
    /// What the engine must do to its Dispatch source so that it matches the schedule. One byte, so that it comes back
    /// in a register: the arming's deadline and leeway are read from ``armedDeadline`` and ``armedLeeway``.
    enum SourceAction {
        /// Nothing: the source is as the schedule needs it.
        case keep
        /// Schedule the source (making it first if there is none) for ``armedDeadline``, with ``armedLeeway``.
        case arm
        /// Cancel the source and let it go (and with it, on a private queue, the queue).
        case tearDown
    }

    /// A timer taken out to fire: what its firing needs, so that the timer itself (which may be freed meanwhile) is not
    /// touched outside the lock.
    struct DueTimer: @unchecked Sendable {
        // Unchecked: `periodic` is an unretained reference only dereferenced with the engine's lock held, after
        // `running` showed the timer is still alive.
        let handler: (@Sendable () -> Void)?
        /// The timer, for a periodic one (to put it back with ``TimerSchedule/reschedule(_:sequence:now:)``); `nil`
        /// for a one-shot, which is finished already.
        let periodic: Unmanaged<EngineTimer>?
        let sequence: UInt64
    }

    /// A periodic timer whose firing is under way, identified by its address and its sequence when it was taken out,
    /// so that a timer freed meanwhile (and its address reused) is never mistaken for it.
    private struct RunningTimer {
        let timer: Unmanaged<EngineTimer>
        let sequence: UInt64
    }

    /// How long an idle engine that lets its source go keeps it first: a loop of schedule+cancel on one private queue
    /// then makes a new source at most this often, never once per timer.
    static let idleGrace: UInt64 = 100_000_000

    private(set) var heap = TimerHeap()
    private var running: [RunningTimer] = []
    private(set) var ready = ReadyTimers()
    private var nextSequence: UInt64 = 0
    /// The deadline the source is armed for; `UInt64.max` when it is not armed (never made, fired, or torn down).
    private(set) var armedDeadline = UInt64.max
    /// The leeway the source is armed with.
    private(set) var armedLeeway: UInt64 = 0
    /// Whether the source is armed only to wake an idle engine (``becameIdle(now:)``), not for a timer.
    private(set) var isArmedForIdle = false
    /// Whether the engine has a source (the last action was an `arm`, not a `tearDown`).
    private(set) var hasSource = false
    /// Whether the source goes when nothing is pending (private queues: the source retains the queue, which, through
    /// its queue-specific value, retains the engine).
    let releasesSourceWhenIdle: Bool

    init(releasesSourceWhenIdle: Bool) {
        self.releasesSourceWhenIdle = releasesSourceWhenIdle
    }

    // MARK: - Scheduling and cancelling

    /// Adds a new `timer` (its deadline, period and leeway set, its index ``EngineTimer/finished``).
    ///
    /// - Returns: The re-arming, when the timer must fire earlier (or more punctually) than the source is armed for.
    /// - Complexity: O(log n) for n pending timers.
    @inline(__always)
    mutating func insert(_ timer: Unmanaged<EngineTimer>) -> SourceAction {
        enqueue(timer)
        return armForInserted(timer)
    }

    /// Takes `timer` out wherever it is, marks it finished and hands back its handler, for the caller to release once
    /// it has unlocked. Idempotent.
    ///
    /// - Parameter now: Read only when the engine goes idle and must set its wake-up.
    /// - Returns: The handler (`nil` if the timer had finished already), and the source action an engine going idle
    ///   needs.
    @inline(__always)
    mutating func cancel(
        _ timer: Unmanaged<EngineTimer>, now: () -> UInt64
    ) -> (handler: (@Sendable () -> Void)?, action: SourceAction) {
        let index = timer._withUnsafeGuaranteedRef { $0.index.load(ordering: .relaxed) }
        if index == EngineTimer.finished { return (nil, .keep) }
        if index >= 0 {
            heap.remove(at: Int(index))
        } else if index == EngineTimer.waiting {
            // Due, waiting in the ready list: its job must find nothing (the timer may be freed before the job runs).
            ready.empty(timer, sequence: timer._withUnsafeGuaranteedRef { $0.sequence })
        } else {
            // Running (or waiting in the ready list, if periodic): the handler's return must not put it back, and a job
            // that has not started it yet finds it gone from `running`.
            forgetRunning(timer, sequence: timer._withUnsafeGuaranteedRef { $0.sequence })
        }
        let action = heap.isEmpty && releasesSourceWhenIdle && !isArmedForIdle ? becameIdle(now: now) : .keep
        return (finish(timer), action)
    }

    // MARK: - Firing

    /// The source fired: it is no longer armed. The engine takes the due timers next, then calls
    /// ``armForEarliest(now:)``.
    mutating func sourceFired() {
        armedDeadline = .max
        isArmedForIdle = false
    }

    /// A serial engine's next firing: the earliest timer, if due at `now`, taken out of the heap. A one-shot gives up
    /// its handler for good; a periodic timer lends it and is listed as running until
    /// ``reschedule(_:sequence:now:)``.
    mutating func takeNextDue(now: UInt64) -> DueTimer? {
        guard let (reference, period, sequence) = removeFirstDue(now: now) else { return nil }
        if period == 0 { return DueTimer(handler: finish(reference), periodic: nil, sequence: sequence) }
        markRunning(reference, sequence: sequence)
        return DueTimer(
            handler: reference._withUnsafeGuaranteedRef { $0.handler }, periodic: reference, sequence: sequence)
    }

    /// A concurrent engine's firing: moves every timer due at `now` into ``ready``, keeping its handler in the timer
    /// until ``takeReady()`` so that `cancel` still reaches it.
    ///
    /// - Returns: How many it moved: the engine submits one job per timer, each calling ``takeReady()`` once.
    mutating func moveDueToReady(now: UInt64) -> Int {
        var moved = 0
        while let (reference, period, sequence) = removeFirstDue(now: now) {
            if period == 0 {
                reference._withUnsafeGuaranteedRef { $0.index.store(EngineTimer.waiting, ordering: .relaxed) }
            } else {
                markRunning(reference, sequence: sequence)
            }
            ready.append(.init(timer: reference, sequence: sequence, isPeriodic: period != 0))
            moved += 1
        }
        return moved
    }

    /// What one job of a concurrent firing runs: the front of ``ready``, or `nil` when that timer was cancelled (or
    /// freed) while it waited.
    mutating func takeReady() -> DueTimer? {
        let entry = ready.removeFirst()
        guard let reference = entry.timer else { return nil }  // a cancelled one-shot
        if entry.isPeriodic {
            // Dereferenced only if still listed as running: not cancelled or freed since it was put there.
            guard isRunning(reference, sequence: entry.sequence) else { return nil }
            let handler = reference._withUnsafeGuaranteedRef { $0.handler }
            return DueTimer(handler: handler, periodic: reference, sequence: entry.sequence)
        }
        // A one-shot still listed is alive: cancelling it (or its deinit) would have emptied the entry.
        return DueTimer(handler: finish(reference), periodic: nil, sequence: entry.sequence)
    }

    /// Puts a periodic timer whose handler returned back into the heap, at the first multiple of its period after
    /// `now` (no drift; missed periods skipped), unless it was cancelled or freed meanwhile. A serial engine arms once
    /// for the whole firing with ``armForEarliest(now:)``; a concurrent one uses ``periodicReturned(_:sequence:now:)``.
    ///
    /// - Returns: Whether the timer went back into the heap.
    @discardableResult
    mutating func reschedule(_ reference: Unmanaged<EngineTimer>, sequence: UInt64, now: UInt64) -> Bool {
        guard forgetRunning(reference, sequence: sequence) else { return false }
        reference._withUnsafeGuaranteedRef { timer in
            var next = timer.deadline &+ timer.period
            if next <= now {
                let missed = (now - timer.deadline) / timer.period
                next = timer.deadline &+ (missed + 1) &* timer.period
            }
            timer.deadline = next < timer.deadline ? Self.latestDeadline : min(next, Self.latestDeadline)
        }
        enqueue(reference)
        return true
    }

    /// A concurrent engine's periodic timer returned from its handler: rescheduled (and the source re-armed if it must
    /// fire earlier), or, if it was cancelled meanwhile, the engine may be idle now.
    mutating func periodicReturned(_ reference: Unmanaged<EngineTimer>, sequence: UInt64, now: UInt64) -> SourceAction {
        if reschedule(reference, sequence: sequence, now: now) { return armForInserted(reference) }
        return heap.isEmpty ? becameIdle(now: { now }) : .keep
    }

    // MARK: - Arming

    /// Arms for the earliest pending timer, with the smallest leeway that keeps every timer due in the window within
    /// its own leeway; or, when nothing is pending, lets an idle engine's source go.
    ///
    /// - Parameter now: Read only when the engine goes idle.
    mutating func armForEarliest(now: () -> UInt64) -> SourceAction {
        guard let first = heap.first else { return becameIdle(now: now) }
        let (deadline, leeway) = first._withUnsafeGuaranteedRef { ($0.deadline, $0.leeway) }
        var limit = UInt64(leeway)
        var budget = 64
        narrowLeeway(&limit, from: 0, deadline: deadline, budget: &budget)
        return arm(deadline: deadline, leeway: limit)
    }

    /// Re-arms if `timer`, just inserted, must fire earlier (or more punctually) than the source is armed for.
    @inline(__always)
    private mutating func armForInserted(_ timer: Unmanaged<EngineTimer>) -> SourceAction {
        if armedDeadline == .max { return armForEarliest(now: { 0 }) }  // the heap holds `timer`: never idle here
        let (deadline, latest) = timer._withUnsafeGuaranteedRef { ($0.deadline, $0.deadline + UInt64($0.leeway)) }
        let armedLatest = armedDeadline + armedLeeway
        if deadline < armedDeadline {
            // Every timer already in the window could wait until `armedLatest`; so can the new window.
            return arm(deadline: deadline, leeway: min(latest, armedLatest) - deadline)
        }
        if latest < armedLatest { return arm(deadline: armedDeadline, leeway: latest - armedDeadline) }
        return .keep
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

    private mutating func arm(deadline: UInt64, leeway: UInt64) -> SourceAction {
        hasSource = true
        isArmedForIdle = false
        armedDeadline = deadline
        armedLeeway = leeway
        return .arm
    }

    /// Nothing is pending. An engine that releases its source when idle lets it go soon: now if it is not armed, else
    /// by re-arming it to wake within ``idleGrace`` and find nothing.
    ///
    /// Once armed for that wake-up, a later idle moment before it (the next schedule+cancel of a loop) has nothing to
    /// do: the source will wake within the grace anyway. That spares it a clock read and the heap check.
    private mutating func becameIdle(now: () -> UInt64) -> SourceAction {
        guard releasesSourceWhenIdle, !isArmedForIdle, hasSource, running.isEmpty else { return .keep }
        heap.shrinkIfEmpty()
        if armedDeadline == .max {
            hasSource = false
            return .tearDown
        }
        isArmedForIdle = true
        let soon = now() + Self.idleGrace
        guard armedDeadline > soon else { return .keep }
        armedDeadline = soon
        armedLeeway = Self.idleGrace
        return .arm
    }

    // MARK: - Timer states

    /// The earliest pending timer, taken out of the heap if it is due at `now`, with its period and sequence.
    @inline(__always)
    private mutating func removeFirstDue(now: UInt64) -> (Unmanaged<EngineTimer>, period: UInt64, sequence: UInt64)? {
        guard let first = heap.first, first._withUnsafeGuaranteedRef({ $0.deadline <= now }) else { return nil }
        let reference = heap.removeFirst()
        let (period, sequence) = reference._withUnsafeGuaranteedRef { ($0.period, $0.sequence) }
        return (reference, period, sequence)
    }

    @inline(__always)
    private mutating func enqueue(_ timer: Unmanaged<EngineTimer>) {
        timer._withUnsafeGuaranteedRef { $0.sequence = nextSequence }
        nextSequence &+= 1
        heap.insert(timer)
    }

    /// Marks `timer` finished (final, stored with release ordering so that `cancel()` and `deinit` can skip the lock)
    /// and takes its handler.
    @inline(__always)
    private func finish(_ timer: Unmanaged<EngineTimer>) -> (@Sendable () -> Void)? {
        timer._withUnsafeGuaranteedRef { timer in
            let handler = timer.handler.take()  // a move: no retain and release of the closure context
            timer.index.store(EngineTimer.finished, ordering: .releasing)
            return handler
        }
    }

    private mutating func markRunning(_ timer: Unmanaged<EngineTimer>, sequence: UInt64) {
        timer._withUnsafeGuaranteedRef { $0.index.store(EngineTimer.running, ordering: .relaxed) }
        running.append(RunningTimer(timer: timer, sequence: sequence))
    }

    private func isRunning(_ timer: Unmanaged<EngineTimer>, sequence: UInt64) -> Bool {
        runningPosition(of: timer, sequence: sequence) != nil
    }

    /// Takes a periodic timer off `running`.
    ///
    /// - Returns: Whether it was there (and so is alive, with its handler's return still to come).
    @discardableResult
    private mutating func forgetRunning(_ timer: Unmanaged<EngineTimer>, sequence: UInt64) -> Bool {
        guard let position = runningPosition(of: timer, sequence: sequence) else { return false }
        running.remove(at: position)
        return true
    }

    /// Where `running` lists `timer` taken out with `sequence` (address and sequence both: a timer freed meanwhile may
    /// have left its address to a new one).
    private func runningPosition(of timer: Unmanaged<EngineTimer>, sequence: UInt64) -> Int? {
        running.firstIndex { $0.timer.toOpaque() == timer.toOpaque() && $0.sequence == sequence }
    }

    // MARK: - Time arithmetic

    /// Deadlines are capped here (about 146 years of uptime), so sums with leeways and periods never overflow.
    static let latestDeadline = UInt64.max / 2
}

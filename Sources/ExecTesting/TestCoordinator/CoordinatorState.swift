// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// Everything a ``TestCoordinator`` knows, as a plain value: virtual time, the pending work (``WorkTimeline``), which
/// thread runs its work, and, for an exploration's run, its choices (``ExploringSteps``) and what fails it
/// (``RunWatch``). Which queues a thread is inside is not here: ExecKit's one record of entered contexts
/// (`EnteredContexts`) says, for simulated queues as for real ones.
///
/// It performs nothing. Each event returns what to do (the work to run, the work to release, a misuse to report),
/// and ``CoordinatorStorage`` does it after unlocking, so that running or releasing a closure never happens under
/// the lock.
struct CoordinatorState: Sendable {
    /// Where every coordinator's virtual time starts: 125 ns of `DispatchTime` uptime. Not 0, because
    /// `DispatchTime(uptimeNanoseconds: 0)` is `DispatchTime.now()` to Dispatch's arithmetic, which would add the
    /// machine's uptime to `now + .seconds(1)`; and 125, because on Apple Silicon a `DispatchTime` counts ticks of
    /// 125/3 ns and rounds to whole ticks, so only multiples of 125 ns survive the round trip through it.
    static let start: UInt64 = 125

    /// Virtual time, in nanoseconds of `DispatchTime` uptime. Never goes back.
    private(set) var now: UInt64 = start

    /// While ``TestCoordinator/withTasksCaptured(hangGrace:filePath:line:_:)`` runs: where this coordinator's global
    /// jobs go, how many calls are in progress (see ``GlobalJobCapture``), and the jobs of captured tasks woken from
    /// outside, which go to Swift's executor if still pending when the last call returns.
    var capture: (target: CaptureTarget?, depth: Int, woken: [WorkToken]) = (nil, 0, [])

    /// The pending work: unfired timers, each serial queue's FIFO, the concurrent work.
    private(set) var timeline = WorkTimeline()
    private var nextSequence: UInt64 = 0
    /// How many pieces of work are pending.
    var pendingCount: Int { timeline.pendingCount }

    /// The thread running coordinator work (in `CoordinatorStorage.run(until:)` or an inline `invokeSync`), or zero.
    private(set) var runner: UInt = 0
    /// Set by `stop()` from inside running work: the run in progress hands out no more work.
    private var stopRequested = false
    /// Set once the coordinator is gone: nothing will run work again, so scheduling refuses work.
    private(set) var isClosed = false
    /// How runs are explored; `nil` for the fixed order, which needs no choosing.
    private var exploring: ExploringSteps?
    /// Whether there is an ``exploring``: a plain flag, which the hot paths test without touching its storage.
    private let chooses: Bool
    /// The step limit, and the livelocks and deadlocks of an exploration's run.
    private var watch: RunWatch

    /// The choices made so far, for the fixed order none.
    var chooser: WorkChooser? { exploring?.chooser }
    /// Whether work that started at an instant tried in a window scheduled something to start later
    /// (``ExploringSteps/timedFromAWindow``).
    var timedFromAWindow: Bool { exploring?.timedFromAWindow ?? false }
    /// The last pieces of work that ran before the step limit stopped the run, or `nil` if it did not.
    var livelock: [PendingWork]? { watch.livelock }
    /// For an exploration's run: the first deadlock an inline `invokeSync` ran into, or `nil`.
    var deadlock: Deadlock? { watch.deadlock }

    /// A coordinator's state at the start of virtual time, nothing pending, ordering work as `ordering` says, and
    /// running at most `stepLimit` pieces of work (no limit when `nil`).
    init(ordering: WorkOrdering = .fixed, stepLimit: Int? = nil) {
        exploring = ordering.mode == .fixed ? nil : ExploringSteps(ordering)
        chooses = ordering.mode != .fixed
        watch = RunWatch(stepLimit: stepLimit)
    }

    // MARK: Scheduling

    /// Queues `work` on its queue now (a block, a task job): at the end of its serial queue's FIFO, or as concurrent
    /// work. It may start `latency` from now, or, when exploring, anywhere up to `spread` after that (the fixed order
    /// starts it at once); a hop's latency never moves its place in its FIFO. Exploring, the ordering first chooses
    /// which of the queue's timers due fired before it joins.
    ///
    /// - Complexity: O(log n).
    mutating func queue(_ work: ScheduledWork, latency: UInt64, spread: UInt64) -> WorkToken {
        guard !isClosed else { return .none }  // the caller releases the refused work, after unlocking
        let earliest = now.addingClamped(latency)
        if chooses, let queue = work.queue, let fifo = timeline.fifo(of: queue) {
            exploring!.settle(
                fifo, in: &timeline, now: now, before: PendingWork(work, dueAt: earliest, sequence: nextSequence))
        }
        let latest = chooses ? earliest.addingClamped(spread) : earliest
        let token = timeline.join(work, sequence: takeSequence(), earliest: earliest, latest: latest)
        if chooses { exploring!.scheduled(token.id, latest: latest, now: now) }
        return token
    }

    /// Adds `work` (a sleeping task's wake-up) to run at `deadline`, or now if that has passed.
    mutating func schedule(_ work: ScheduledWork, at deadline: UInt64) -> WorkToken {
        guard !isClosed else { return .none }
        let due = max(deadline, now)
        let token = timeline.join(work, sequence: takeSequence(), earliest: due, latest: due)
        if chooses { exploring!.scheduled(token.id, latest: due, now: now) }
        return token
    }

    /// Adds a timer (`work`, its handler) that fires at `deadline`, or, when exploring, anywhere in its leeway after
    /// that: when it fires, its handler joins its queue. A periodic timer's first firing is due at its
    /// ``ScheduledWork/Repetition/deadline``. In the fixed order a timer fires as soon as it is due (one due already,
    /// at once); exploring, when the order matters (see ``ExploringSteps``).
    ///
    /// - Complexity: O(log n).
    mutating func scheduleTimer(_ work: ScheduledWork, at deadline: UInt64) -> WorkToken {
        guard !isClosed else { return .none }
        let sequence = takeSequence()
        let earliest = max(deadline, now)
        let latest = earliest.addingClamped(chooses ? leeway(of: work) : 0)
        let token = timeline.plan(work, sequence: sequence, earliest: earliest, latest: latest)
        if !chooses && earliest <= now {
            timeline.fire(.init(deadline: earliest, sequence: sequence, slot: token.slot), now: now)
        }
        if chooses { exploring!.scheduled(token.id, latest: latest, now: now) }
        return token
    }

    /// How late in its leeway a firing of `work` may come: a periodic timer's stops short of its period, so that a
    /// late firing never meets the next one.
    private func leeway(of work: ScheduledWork) -> UInt64 {
        work.repetition.map { min(work.leeway, $0.period - 1) } ?? work.leeway
    }

    private mutating func takeSequence() -> UInt64 {
        defer { nextSequence += 1 }
        return nextSequence
    }

    /// Removes the work `token` names, if it is still pending, and returns it for the caller to release after
    /// unlocking.
    ///
    /// - Complexity: O(1), amortized (stale keys are dropped when they surface, or when they outnumber live ones).
    mutating func cancel(_ token: WorkToken) -> ScheduledWork? {
        timeline.cancel(token)
    }

    /// Marks the coordinator gone (work scheduled from now on is refused), and empties every slot, returning the work.
    mutating func close() -> [ScheduledWork] {
        isClosed = true
        return removeAll()
    }

    /// Empties every slot and returns the work, in the order it would have run (CwlUtils' coordinator released its
    /// queues in that order, and a teardown may depend on it).
    mutating func removeAll() -> [ScheduledWork] {
        timeline.removeAll()
    }

    // MARK: Running

    /// What ``startRun(on:)`` and ``enter(_:on:isInside:)`` answer.
    enum EntryAction: Sendable {
        /// Go ahead.
        case proceed
        /// Go ahead; this call made the thread the runner, so leaving must give that up.
        case proceedAsRunner
        /// Another thread is running the coordinator's work: running here too would break "one block at a time".
        case failBusyElsewhere
        /// The thread is already running the coordinator's work (a block called `runUntilIdle` or `advance`).
        case failReentrantRun
        /// A mutex-type queue was entered from inside itself, which would deadlock for real.
        case failReentrantMutex(SimulatedQueue)
        /// Work that runs on a queue's behalf while a caller waits for it entered a queue that caller holds: for
        /// real, the two threads would wait for each other.
        case failHeldByWaitingCaller(SimulatedQueue)
    }

    /// Makes `thread` the runner, for `runUntilIdle` and `advance`.
    mutating func startRun(on thread: UInt) -> EntryAction {
        if runner == thread { return .failReentrantRun }
        if runner != 0 { return .failBusyElsewhere }
        runner = thread
        runsStarted &+= 1
        exploring?.markLoud()  // what the test did since the last run: a sleeping candidate must wake
        return .proceed
    }

    /// How many runs (`runUntilIdle`, `advance`, `run(upTo:)`) have started: the stall watch compares two readings.
    private(set) var runsStarted: UInt64 = 0

    /// The queue of a pending task or actor job, when no run is in progress and none has started since `runs`; `nil`
    /// otherwise. For the stall watch: such a job waits for a test that is not driving the coordinator.
    func stalledJobQueue(sinceRuns runs: UInt64) -> String?? {
        guard runner == 0, runsStarted == runs else { return nil }
        return timeline.pendingJobQueue
    }

    /// Removes and returns the next work to run by `limit`, after moving virtual time to when it starts (the caller
    /// runs it inside its queue); `nil` when nothing more runs by then. On the way, timers due fire: their handlers
    /// join their queues. A periodic timer stays, unfired until its next firing (with a sequence number taken when its
    /// handler is handed out, before anything the handler schedules).
    ///
    /// The fixed order fires every timer due before running anything due at the same instant, then runs the work of
    /// the earliest key (by time, then sequence) among the first blocks of the serial queues and the concurrent work.
    /// Exploring, each step is the ordering's pick among the steps that may come next (``ExploringSteps``).
    ///
    /// - Complexity: O(log n) per step, plus O(log n) for each stale key dropped; exploring, plus the choice, O(c log c)
    ///   for the c steps it chooses among.
    mutating func nextDue(until limit: UInt64) -> ScheduledWork? {
        if stopRequested { return nil }
        if chooses {
            guard let (key, chosen) = exploring!.next(in: &timeline, now: &now, until: limit), !watch.limitReached()
            else { return nil }
            let work = handOut(key, nested: false)
            if chosen { exploring!.picked(work, in: timeline) }
            return work
        }
        while true {
            let firing = timeline.firstFiring()
            let runnable = timeline.firstRunnable()
            let time: UInt64 = Swift.min(firing?.deadline ?? UInt64.max, runnable?.deadline ?? UInt64.max)
            guard time <= limit, firing != nil || runnable != nil else { return nil }
            now = max(now, time)
            if let firing, firing.deadline <= now {
                timeline.fire(firing, now: now)
                continue
            }
            guard let runnable, !watch.limitReached() else { return nil }
            return handOut(runnable, nested: false)
        }
    }

    /// The sequence number the next scheduling will take: work scheduled from now on has this one or a later one.
    var sequenceBound: UInt64 { nextSequence }

    /// Before an inline `invokeSync` onto `queue`: when exploring, the ordering chooses which of its timers due fired
    /// before the call (they then run first, as blocks queued before it do).
    mutating func settleBeforeSync(onto queue: SimulatedQueue, caller: PendingWork) {
        guard chooses, let fifo = timeline.fifo(of: queue) else { return }
        exploring!.settle(fifo, in: &timeline, now: now, before: caller)
    }

    /// Removes and returns the first block of `queue` when it may start now and was scheduled before `bound` (a
    /// ``sequenceBound``), for an inline `invokeSync` onto it: as libdispatch's `sync` does, the caller's block runs
    /// after the blocks already queued there (and started), not after those queued since, nor behind a hop still in
    /// flight. Virtual time does not move.
    ///
    /// - Complexity: O(log n).
    mutating func nextDueNow(in queue: SimulatedQueue, before bound: UInt64) -> ScheduledWork? {
        if stopRequested { return nil }
        guard let key = timeline.readyHead(of: queue, now: now, before: bound), !watch.limitReached() else {
            return nil
        }
        return handOut(key, nested: true)
    }

    /// Hands out the work `key` names (a live key of the timeline's runnable work): one-shot work leaves its slot; a
    /// periodic timer stays, unfired until its next firing (with a sequence number taken now, before anything its
    /// handler schedules). `nested` for a block run inside another's inline `invokeSync`.
    private mutating func handOut(_ key: WorkHeap.Key, nested: Bool) -> ScheduledWork? {
        if watch.counts { watch.handingOut(timeline.pendingWork(key)) }
        if chooses { exploring!.handingOut(key, in: timeline, nested: nested) }
        let next = timeline.repetition(ofSlot: key.slot).map { repetition, leeway in
            let earliest = max(repetition.nextDeadline, now)
            let window = chooses ? min(leeway, repetition.period - 1) : 0
            return (sequence: takeSequence(), earliest: earliest, latest: earliest.addingClamped(window))
        }
        return timeline.handOut(key, nextFiring: next)
    }

    /// Makes `thread` the runner, while it holds the baton of a run in progress: a fiber (``Fiber``) runs part of a
    /// block as the runner, and hands the role back when it parks.
    mutating func handRunner(to thread: UInt) {
        runner = thread
    }

    /// Queues `work`, the rest of a parked fiber's block, as concurrent work due now, or returns `nil` once the
    /// coordinator is gone; `shifted` says whether the block started at an instant tried in a window.
    mutating func queueResumption(_ work: ScheduledWork, shifted: Bool) -> WorkToken? {
        guard !isClosed else { return nil }
        let token = timeline.join(work, sequence: takeSequence(), earliest: now, latest: now)
        if shifted { exploring?.markShifted(token.id) }
        return token
    }

    /// Whether the work running now started at an instant tried in a window; `shifted`, if given, replaces that.
    mutating func attribute(shifted: Bool?) -> Bool {
        exploring?.attribute(shifted: shifted) ?? false
    }

    /// Fails an exploration's run as a deadlock that `waits` describes (a plain coordinator's run does not fail).
    mutating func failRun(deadlocked waits: String) {
        _ = watch.failsRun(with: waits)
    }

    /// Asks the run in progress to hand out no more work; `false` when no run is in progress on `thread`.
    mutating func stop(on thread: UInt) -> Bool {
        guard runner == thread else { return false }
        stopRequested = true
        return true
    }

    /// Whether the run in progress was stopped.
    var isStopped: Bool { stopRequested }

    /// Ends a run: virtual time moves on to `limit` (never back) unless the run was stopped, and the thread stops
    /// being the runner.
    mutating func finishRun(at limit: UInt64) {
        if !stopRequested {
            // Exploring, a timer whose window closed by then has fired: behind the blocks of its queue.
            exploring?.fireOverdue(&timeline, by: max(now, limit), now: now)
            now = max(now, limit)
        }
        stopRequested = false
        runner = 0
        watch.runEnded()
        exploring?.runEnded()
        exploring?.markLoud()  // the test may act before the next run
    }

    /// Lets `thread` enter `queue` for an inline `invokeSync`, or says why it cannot; `isInside` is whether the
    /// thread's record says it is inside `queue` already.
    mutating func enter(_ queue: SimulatedQueue, on thread: UInt, isInside: Bool) -> EntryAction {
        // First: a thread lent a mutex queue by a waiting caller re-enters it, whichever thread that is.
        // Explored, the runner's own re-entry fails the run instead (a lent thread's still stops the program).
        if queue.isMutex && isInside {
            guard runner == thread,
                watch.failsRun(
                    with: "invokeSync onto the mutex queue \"\(queue.name)\" from inside it, directly or through "
                        + "other queues: a real mutex queue would wait for itself")
            else { return .failReentrantMutex(queue) }
        }
        if runner == 0 {
            runner = thread
            exploring?.markLoud()  // the test's own inline invokeSync: it may have acted since the last run
            return .proceedAsRunner
        }
        if runner != thread { return .failBusyElsewhere }
        if !isInside, let waits = watch.cycle(closingOn: queue), !watch.failsRun(with: waits) {
            return .failHeldByWaitingCaller(queue)
        }
        return .proceed
    }

    /// Ends what the matching ``enter(_:on:isInside:)`` allowed.
    mutating func leave(asRunner: Bool) {
        if asRunner {
            runner = 0
            stopRequested = false  // a stop() inside an inline run from the test's own code ends with it
            watch.runEnded()
        }
    }

    /// Declares work on each of `queues` independent of work on the others, for an exhaustive exploration.
    mutating func declareIndependent(_ queues: [SimulatedQueue]) {
        exploring?.declareIndependent(queues)
    }

    /// Records that the serial queues among `standing` stay held while work runs isolated in `queue`. Returns what
    /// ``restore(heldCount:)`` needs.
    mutating func isolate(in queue: SimulatedQueue, leaving standing: [SimulatedQueue]) -> Int {
        watch.isolate(in: queue, leaving: standing)
    }

    /// Puts back what ``isolate(in:leaving:)`` changed.
    mutating func restore(heldCount: Int) {
        watch.restore(heldCount: heldCount)
    }

    // MARK: Inspection

    /// Every pending piece of work with its key, in the order it would run if nothing were chosen.
    ///
    /// - Complexity: O(n log n).
    var pendingInOrder: [(key: WorkHeap.Key, work: ScheduledWork)] { timeline.pendingInOrder }
}

extension UInt64 {
    /// `self + other`, or `.max` when that overflows.
    fileprivate func addingClamped(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}

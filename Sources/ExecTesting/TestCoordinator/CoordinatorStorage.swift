// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims
import ExecDispatch
import ExecKit
@_spi(ExecTesting) import ExecMutex
import Synchronization

/// Holds a ``CoordinatorState`` under a lock and carries out what its events return, after unlocking: runs the due
/// work, releases cancelled work, reports misuse.
///
/// Any thread may schedule or cancel work; work runs only on the thread that calls ``run(until:)`` (the test's
/// `runUntilIdle` or `advance`) or an inline `invokeSync`, one piece at a time.
final class CoordinatorStorage: Sendable {
    private let state: LockedBox<CoordinatorState>
    /// Whether each scheduling captures its caller's stack, for ``PendingWork/callSite``.
    let recordsCallSites: Bool
    /// How much later than now a queued block or task job is due, in nanoseconds: zero, or a test's per-hop latency.
    let hopLatency: UInt64
    /// How much longer than `hopLatency` an exploring coordinator may make a hop, in nanoseconds (zero: no choice).
    let hopLatencySpread: UInt64
    /// Whether this coordinator runs one of an exploration's runs (it has a step limit): it then reports deadlocks
    /// and hangs as the run's failure.
    let explores: Bool
    /// Marks the coordinator gone and discards what is pending, in one step: work scheduled afterwards is refused,
    /// which drops it as a discard does (task and actor jobs then go to real executors, so that their tasks finish; a
    /// sleep wakes with `CancellationError`).
    func close() {
        drop(state.withLock { $0.close() })
        // A block stopped part-way runs to its end on its own thread: its rest cannot be dropped.
        if let fiberLocks, fiberLocks.hasLiveFibers { fiberLocks.releaseAll() }
    }

    /// Carries out the discard of `removed`, in order: each piece's discard action, then its release, before the next.
    private func drop(_ removed: [ScheduledWork]) {
        var removed = removed.map { Optional($0) }
        for index in removed.indices {
            removed[index]?.onDiscard?()
            removed[index] = nil
        }
    }

    /// Adds `work` as `add` says; work refused (the coordinator is gone) is dropped as a discard drops it, from a
    /// global queue: the caller may hold a lock that the drop takes (a sleeper scheduling its wake-up does).
    private func add(_ work: ScheduledWork, _ add: (inout CoordinatorState) -> WorkToken) -> WorkToken {
        let (token, refused) = state.withLock { state -> (WorkToken, ScheduledWork?) in
            guard !state.isClosed else { return (.none, work) }
            return (add(&state), nil)
        }
        if let refused { DispatchQueue.global().async { refused.onDiscard?() } }
        return token
    }

    /// Whether ``TestCoordinator/withTasksCaptured(hangGrace:filePath:line:_:)`` is running (``CoordinatorState/capture`` says where the jobs
    /// go): spares a run that captures nothing the lock.
    private let capturing = Atomic(false)

    /// Starts capturing the global jobs of this coordinator's work into `target` (nested calls share the first one's).
    func beginCapturing(_ target: @autoclosure () -> CaptureTarget) {
        state.withLock { state in
            if state.capture.depth == 0 {
                let target = target()
                state.capture.target = target
                CapturedTaskIDs.startCapturing(target)
                GlobalJobCapture.retain()
            }
            state.capture.depth += 1
        }
        capturing.store(true, ordering: .releasing)
    }

    /// Ends one ``beginCapturing(_:)``. The last one hands the jobs of woken tasks still pending to Swift's executor
    /// (their blocks, released after unlocking, send them there): a wake that came after the body's last run would
    /// otherwise wait for a run that never comes.
    func endCapturing() {
        let unrun = state.withLock { state -> [ScheduledWork] in
            state.capture.depth -= 1
            guard state.capture.depth == 0 else { return [] }
            if let target = state.capture.target { CapturedTaskIDs.stopCapturing(target) }
            state.capture.target = nil
            capturing.store(false, ordering: .releasing)
            GlobalJobCapture.release()
            defer { state.capture.woken = [] }
            return state.capture.woken.compactMap { state.cancel($0) }
        }
        withExtendedLifetime(unrun) {}
    }

    /// Schedules `body`, a job of a task `target` captured that something outside woke, as work due now, if this
    /// coordinator still captures into `target`. Otherwise (the last call has returned) `body` is released here,
    /// after unlocking, unrun: the job's block then sends it to Swift's executor.
    func scheduleWoken(on queue: SimulatedQueue?, for target: CaptureTarget, _ body: @escaping @Sendable () -> Void) {
        let work = ScheduledWork(queue: queue, kind: .job, origin: captureOrigin(), body: body)
        state.withLock { state in
            guard !state.isClosed, state.capture.target === target else { return }
            state.capture.woken.append(state.queue(work, latency: hopLatency, spread: hopLatencySpread))
        }
    }

    /// The capture target of this coordinator's work, or `nil` when it captures nothing.
    var captureTarget: CaptureTarget? {
        capturing.load(ordering: .acquiring) ? state.withLock { $0.capture.target } : nil
    }

    /// Set while a stall watch is armed (see ``watchForStall()``); once it has reported, it stays set.
    private let stallWatchArmed = Atomic(false)
    /// How many simulated queues of this coordinator have been made.
    private let queuesMade = Atomic(0)

    /// A number for a new simulated queue of this coordinator, from 0 (``SimulatedQueue/index``).
    func newQueueIndex() -> Int {
        queuesMade.add(1, ordering: .relaxed).oldValue
    }

    /// For a coordinator exploring with `interleavesGlobalBlocks`, what runs its concurrent blocks on fibers, which
    /// interleave at each ExecKit call and lock acquisition (``Fiber``), and watches the runner's locks; `nil`
    /// otherwise, and each block runs whole.
    let fiberLocks: FiberLocks?

    init(
        recordsCallSites: Bool, hopLatency: Duration = .zero, hopLatencySpread: Duration = .zero,
        ordering: WorkOrdering = .fixed, stepLimit: Int? = nil, interleavesGlobalBlocks: Bool = false
    ) {
        fiberLocks = stepLimit != nil && interleavesGlobalBlocks ? FiberLocks() : nil
        self.hopLatencySpread = max(hopLatencySpread, .zero).saturatingNanoseconds
        state = LockedBox(CoordinatorState(ordering: ordering, stepLimit: stepLimit), observed: false)
        explores = stepLimit != nil
        self.recordsCallSites = recordsCallSites
        self.hopLatency = max(hopLatency, .zero).saturatingNanoseconds
    }

    /// The caller's stack, when call sites are recorded; called before taking the lock.
    func captureOrigin() -> RecordedCallSite? {
        recordsCallSites ? RecordedCallSite.capture() : nil
    }

    /// Virtual time, in nanoseconds of `DispatchTime` uptime.
    var now: UInt64 { state.withLock { $0.now } }

    /// Schedules `body` to run in `queue` at `deadline` (now if that has passed), after everything already due then.
    @discardableResult
    func schedule(
        _ kind: PendingWork.Kind,
        on queue: SimulatedQueue?,
        at deadline: UInt64,
        onDiscard: (@Sendable () -> Void)? = nil,
        _ body: @escaping @Sendable () -> Void
    ) -> WorkToken {
        interleavingPoint()
        var work = ScheduledWork(queue: queue, kind: kind, origin: captureOrigin(), body: body)
        work.onDiscard = onDiscard
        return add(work) { $0.schedule(work, at: deadline) }
    }

    /// Schedules a timer firing `body` in `queue` `interval` from now: once, or every `interval` when `repeats`.
    func scheduleTimer(
        on queue: SimulatedQueue,
        interval: Duration,
        leeway: Duration = .zero,
        repeats: Bool,
        _ body: @escaping @Sendable () -> Void
    ) -> WorkToken {
        interleavingPoint()
        let period = interval.saturatingNanoseconds
        let origin = captureOrigin()
        let (token, refused) = state.withLock { state -> (WorkToken, ScheduledWork?) in
            var work: ScheduledWork
            let deadline: UInt64
            if repeats {
                let repetition = ScheduledWork.Repetition(start: state.now, period: max(period, 1))
                work = ScheduledWork(
                    queue: queue, kind: .periodicTimer(interval: interval), origin: origin, body: body,
                    repetition: repetition)
                deadline = repetition.deadline
            } else {
                work = ScheduledWork(queue: queue, kind: .singleTimer, origin: origin, body: body)
                deadline = state.now &+ min(period, .max - state.now)
            }
            if state.isClosed { return (.none, work) }
            work.leeway = max(leeway, .zero).saturatingNanoseconds
            return (state.scheduleTimer(work, at: deadline), nil)
        }
        withExtendedLifetime(refused) {}  // released after unlocking
        return token
    }

    /// Schedules `body` to run in `queue` now (or a hop's latency from now, unless `withoutHopLatency`), after
    /// everything already due then.
    @discardableResult
    func scheduleNow(
        _ kind: PendingWork.Kind,
        on queue: SimulatedQueue?,
        withoutHopLatency: Bool = false,
        _ body: @escaping @Sendable () -> Void
    ) -> WorkToken {
        interleavingPoint()
        if case .job = kind { watchForStall() }
        let work = ScheduledWork(queue: queue, kind: kind, origin: captureOrigin(), body: body)
        let latency = withoutHopLatency ? 0 : hopLatency
        let spread = withoutHopLatency ? 0 : hopLatencySpread
        return add(work) { $0.queue(work, latency: latency, spread: spread) }
    }

    /// After a task or actor job is scheduled: unless a watch is armed already, checks in a few seconds of real time
    /// whether a job is still waiting with nothing driving the coordinator, and then writes one line to standard error
    /// that names the queue and the fix. A test that awaits an actor on a simulated queue from its own code (rather than
    /// in `coordinator.task { }`) waits forever otherwise, with no word. Costs one atomic load per job scheduled.
    private func watchForStall() {
        guard !stallWatchArmed.load(ordering: .relaxed),
            !stallWatchArmed.exchange(true, ordering: .acquiringAndReleasing)
        else { return }
        let runs = state.withLock { $0.runsStarted }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.stallReportDelay) { [weak self] in
            guard let self else { return }
            guard let queueName = state.withLock({ $0.stalledJobQueue(sinceRuns: runs) }) else {
                stallWatchArmed.store(false, ordering: .releasing)  // the coordinator moved on: watch again later
                return
            }
            let place = queueName.map { "the simulated queue \"\($0)\"" } ?? "the coordinator's executor"
            let line =
                "ExecTesting: a task or actor job has waited \(Int(Self.stallReportDelay)) s on \(place) of a "
                + "TestCoordinator, and nothing is running the coordinator: its jobs run only inside runUntilIdle(), "
                + "advance or run(). If the test awaits that work from its own code, it waits forever: start the "
                + "awaiting code with coordinator.task { } and advance, or call run().\n"
            StandardError.write(line)
        }
    }

    /// How long a job waits, in seconds of real time, before the stall watch reports it.
    static let stallReportDelay: Double = 3

    /// Removes the work `token` names if it has not run; the work's closure is released after unlocking, so that a
    /// deinit it triggers may call back into the coordinator.
    func cancel(_ token: WorkToken) {
        interleavingPoint()
        let removed = state.withLock { $0.cancel(token) }
        withExtendedLifetime(removed) {}
    }

    /// Drops all pending work, releasing it after unlocking, in the order it would have run (a sleep's wake-up resumes
    /// its task with `CancellationError` instead of leaving it suspended for good).
    func discardAll() {
        drop(state.withLock { $0.removeAll() })
    }

    /// Asks the run in progress on the calling thread to run nothing after the current work; `false` when the
    /// calling thread is not running the coordinator's work.
    @discardableResult
    func stop() -> Bool {
        let thread = ThreadIdentity.current
        return state.withLock { $0.stop(on: thread) }
    }

    /// Runs, on the calling thread, every piece of work due at or before `limit` in time order (work that the work
    /// schedules included), then moves virtual time to `limit`, or leaves it at the last deadline reached when
    /// `movesToLimit` is `false`.
    /// - Returns: Whether work inside the run called `stop()`.
    @discardableResult
    func run(until limit: UInt64, movesToLimit: Bool = true) -> Bool {
        let thread = ThreadIdentity.current
        let start = state.withLock { $0.startRun(on: thread) }
        if case .failReentrantRun = start {
            misuse(
                "runUntilIdle(), run(upTo:) or advance(by:/to:) was called from inside work that the coordinator is running. "
                    + "Only the test itself drives virtual time; schedule follow-up work instead.")
        }
        if case .failBusyElsewhere = start {
            misuse(
                "runUntilIdle(), run(upTo:) or advance(by:/to:) was called while another thread is running its work.")
        }
        // A limit in the past still runs what is due now; only this thread moves time while it is the runner.
        let limit = max(limit, state.withLock { $0.now })
        // Capturing, the global jobs this work enqueues are the coordinator's (see ``GlobalJobCapture``).
        if let target = captureTarget {
            GlobalJobCapture.runningWork(for: target) { runDue(until: limit) }
        } else {
            runDue(until: limit)
        }
        return state.withLock { state in
            defer { state.finishRun(at: movesToLimit ? limit : state.now) }
            return state.isStopped
        }
    }

    /// Runs the work due by `limit`, one piece at a time, on the calling thread (the runner).
    private func runDue(until limit: UInt64) {
        guard let fiberLocks else {
            return explores ? runEachWholeCountingPoints(until: limit) : runEachWhole(until: limit)
        }
        // The runner's locks are watched throughout: a fiber may wait for one a block took and a later one lets go.
        LockObserver.observing(with: fiberLocks) {
            while let work = state.withLock({ $0.nextDue(until: limit) }) {
                if work.isResumption {
                    work.body()  // the fiber's resume()
                } else if work.isGlobalBlock, let queue = work.queue, Fiber.mayStart {
                    Fiber.start(work, in: queue, storage: self, locks: fiberLocks)
                } else {
                    // Whole, its locks watched (a stopped block may hold one it wants). A global block here is past the
                    // process's fibers: two points in it leave orderings out, as without interleaving.
                    fiberLocks.runnerStartsBlock()
                    runWhole(work)
                    if work.isGlobalBlock && fiberLocks.runnerPoints >= 2 { leaveOrderingsOut() }
                }
            }
        }
        // Nothing left to run while blocks wait for locks: a deadlock (with work pending, or a stopped run, a later run
        // may still let go of them; the run's end checks again).
        if state.withLock({ !$0.isStopped && $0.pendingCount == 0 }) { failRunIfLocksAreStuck() }
    }

    /// Runs the work due by `limit` each piece whole, for an exploration that does not interleave global blocks: a
    /// global block that makes two calls onto the coordinator or takes two locks leaves orderings out.
    private func runEachWholeCountingPoints(until limit: UInt64) {
        while let work = state.withLock({ $0.nextDue(until: limit) }) {
            if work.isGlobalBlock {
                runGlobalBlockWhole(work)
            } else {
                runWhole(work)
            }
        }
    }

    /// Runs `work`, a block of the global queue, whole, counting its calls onto the coordinator and its locks: two or
    /// more, where real threads could have got in between, leave orderings out of the run.
    private func runGlobalBlockWhole(_ work: borrowing ScheduledWork) {
        let counter = PointCounter()
        LockObserver.observing(with: counter) { runWhole(work) }
        if counter.points >= 2 { leaveOrderingsOut() }
    }

    /// Whether this run left orderings out that no other run tries: a global block run whole made two calls or took
    /// two locks (``runGlobalBlockWhole(_:)``), or a thread that could not park, having acted, ran a stopped block on
    /// to take its lock (``FiberLocks``).
    private let leftOrderingsOut = Atomic(false)

    /// Notes that this run left orderings out (``runLeftOrderingsOut``).
    func leaveOrderingsOut() {
        leftOrderingsOut.store(true, ordering: .relaxed)
    }

    /// Fails the run as a deadlock if blocks wait for locks that nothing left will let go of.
    func failRunIfLocksAreStuck() {
        guard let fiberLocks, fiberLocks.hasLiveFibers, let waits = fiberLocks.stuckWaits() else { return }
        state.withLock { $0.failRun(deadlocked: waits) }
    }

    /// Runs the work due by `limit` as ``runDue(until:)`` does, each piece whole, on the calling thread.
    private func runEachWhole(until limit: UInt64) {
        while let work = state.withLock({ $0.nextDue(until: limit) }) { runWhole(work) }
    }

    /// Runs `work` inside its queue, on the calling thread. Inlined and borrowing: a copy of the work would retain and
    /// release each of its references, a cost every piece of work the fixed order runs would pay.
    @inline(__always)
    private func runWhole(_ work: borrowing ScheduledWork) {
        guard let queue = work.queue else { return work.body() }
        // Kept while its key is recorded: a queue's key must not outlive it (a new one could take its address).
        withExtendedLifetime(queue) { EnteredContexts.entering(queue.key, work.body) }
    }

    // MARK: Fibers

    /// An ExecKit call onto the coordinator: when the calling thread is a fiber of this coordinator's (a concurrent
    /// block of an exploring run), a point where other work may run before the call takes effect. Costs a
    /// thread-local load elsewhere.
    private func interleavingPoint() {
        guard let observer = execkit_current_lock_observer(), explores else { return }
        if let fiberLocks, observer == Unmanaged.passUnretained(fiberLocks).toOpaque() {
            fiberLocks.runnerActs()  // the runner's block: a later wait for a fiber's lock could hide an ordering
        } else if let counter = LockObserver.current as? PointCounter {
            counter.count()  // a global block run whole
        } else if fiberLocks != nil, let fiber = Fiber.parkable(of: self) {
            fiber.yield()
        }
    }

    /// The calling fiber of this coordinator's, now counted as standing in a queue (it does not park until the caller
    /// takes the count back down), or `nil` when the thread is no such fiber.
    private func nestingFiber() -> Fiber? {
        guard fiberLocks != nil, let fiber = Fiber.parkable(of: self) else { return nil }
        fiber.nesting += 1
        return fiber
    }

    /// Queues the rest of `fiber`'s block as a piece of work of its queue, due now; `false` if the coordinator is gone.
    func queueResumption(of fiber: Fiber) -> Bool {
        var work = ScheduledWork(queue: fiber.queue, kind: .block, origin: fiber.origin, body: { fiber.resume() })
        // (Its discard action is also what marks it a resumption: ScheduledWork.isResumption.) Discarded, the rest stays
        // stopped (it cannot be dropped) until a thread that wants one of its locks runs it on, or the coordinator goes
        // and it runs to its end.
        work.onDiscard = { fiber.resumption = nil }
        let token = state.withLock { $0.queueResumption(work, shifted: fiber.isShifted) }
        fiber.resumption = token
        return token != nil
    }

    /// Takes `fiber`'s pending resumption out of the coordinator's work, for a thread that runs the fiber on at once.
    func cancelResumption(_ token: WorkToken) {
        let removed = state.withLock { $0.cancel(token) }
        withExtendedLifetime(removed) {}
    }

    /// Makes the work running now count as started at an instant tried in a window (`shifted`) or not, and returns
    /// whether it did; `nil` only reads it. For a fiber run on by a thread that waits for its lock.
    func attribute(shifted: Bool?) -> Bool {
        state.withLock { $0.attribute(shifted: shifted) }
    }

    /// Gives the runner's role to `thread` (a fiber taking or handing back the baton).
    func handRunner(to thread: UInt) {
        state.withLock { $0.handRunner(to: thread) }
    }

    /// Whether this run left orderings out (``leaveOrderingsOut()``).
    var runLeftOrderingsOut: Bool { leftOrderingsOut.load(ordering: .relaxed) }

    /// Runs `body` inline inside `queue`, for `invokeSync` onto a simulated queue: the one real thread enters the
    /// queue instead of waiting for it. For a serial queue (`afterQueuedWork`), the work already due now in that queue
    /// runs first, as libdispatch's `sync` waits for the blocks queued before it.
    func runInline<Return>(
        in queue: SimulatedQueue, afterQueuedWork: Bool = false, _ body: () throws -> Return
    ) rethrows -> Return {
        interleavingPoint()
        if let fiberLocks, let fiber = Fiber.parkable(of: self),
            let waits = fiberLocks.cycleEntering(queue, from: fiber)
        {
            state.withLock { $0.failRun(deadlocked: waits) }  // it runs on inline, but nothing more runs in this run
        }
        let entry = enter(queue)
        defer { state.withLock { $0.leave(asRunner: entry.isRunner) } }
        let fiber = nestingFiber()
        defer { fiber?.nesting -= 1 }
        if afterQueuedWork {
            let caller = PendingWork(
                kind: .block, queueName: queue.name, deadline: .init(uptimeNanoseconds: now), sequence: 0)
            let bound = state.withLock { state in
                state.settleBeforeSync(onto: queue, caller: caller)
                return state.sequenceBound
            }
            while let work = state.withLock({ $0.nextDueNow(in: queue, before: bound) }) {
                isolated(in: queue) { work.body() }
            }
        }
        return try EnteredContexts.entering(queue.key, body)
    }

    /// Runs `body` inside `queue` alone, as the queue's own thread would: outside the queues the caller is in, which
    /// count as held by a waiting caller meanwhile. For work a waiting caller runs on a queue's behalf.
    func runIsolated(in queue: SimulatedQueue, _ body: () -> Void) {
        interleavingPoint()
        let fiber = nestingFiber()
        defer { fiber?.nesting -= 1 }
        let entry = enter(queue)
        defer { state.withLock { $0.leave(asRunner: entry.isRunner) } }
        isolated(in: queue, body)
    }

    /// Runs `body` inside `queue` and no other simulated queue (the real contexts this thread holds stay entered: it
    /// does hold them), with the serial queues the caller stands in held meanwhile.
    private func isolated(in queue: SimulatedQueue, _ body: () -> Void) {
        let standing = EnteredContexts.enteredKeys.compactMap { $0.simulatedObject(as: SimulatedQueue.self) }
        let heldCount = state.withLock { $0.isolate(in: queue, leaving: standing) }
        defer { state.withLock { $0.restore(heldCount: heldCount) } }
        EnteredContexts.entering(queue.key, hiding: \.isSimulated, body)
    }

    /// Enters `queue` on the calling thread, or stops the program with a message saying why it cannot.
    private func enter(_ queue: SimulatedQueue) -> CoordinatorState.EntryAction {
        let isInside = EnteredContexts.contains(queue.key)
        let entry = state.withLock { $0.enter(queue, on: ThreadIdentity.current, isInside: isInside) }
        switch entry {
        case .proceed, .proceedAsRunner:
            break
        case .failReentrantMutex(let queue):
            misuse(
                "the simulated mutex queue \"\(queue.name)\" was invoked from inside itself, directly or through "
                    + "other queues. A real mutex queue would deadlock; use invokeAsync for nested work, or a "
                    + "re-entrant (.serialAsync) queue.")
        case .failHeldByWaitingCaller(let queue):
            misuse(
                "work queued on a simulated queue entered \"\(queue.name)\" while a caller inside \"\(queue.name)\" "
                    + "was waiting for that work in invokeSync. For real, the two threads would wait for each other; "
                    + "use invokeAsync on one side.")
        case .failBusyElsewhere, .failReentrantRun:
            misuse(
                "invokeSync onto the simulated queue \"\(queue.name)\" from a thread other than the one running the "
                    + "coordinator's work. A coordinator runs one block at a time on one thread; use invoke or "
                    + "invokeAsync from other threads.")
        }
        return entry
    }

    /// Whether the calling thread is running inside `queue`: it runs the queue's work, possibly through calls into
    /// other contexts since, or runs for a caller parked in an ExecKit `sync` that does (the rule every ExecKit
    /// context follows). No lock: the thread's record of entered contexts says.
    func isInside(_ queue: SimulatedQueue) -> Bool {
        EnteredContexts.contains(queue.key)
    }

    /// The innermost simulated queue the calling thread runs in, if it is running the coordinator's work.
    var currentQueueName: String? {
        let owner = ObjectIdentifier(self)
        return EnteredContexts.enteredKeys.lazy
            .compactMap { $0.simulatedObject(as: SimulatedQueue.self) }
            .first { $0.owner == owner }?.name
    }

    /// Every pending piece of work, in run order; each call site is resolved when first read, outside the lock.
    var pendingWork: [PendingWork] {
        state.withLock { $0.pendingInOrder }.map { key, work in
            PendingWork(work, dueAt: key.deadline, sequence: key.sequence)
        }
    }

    /// The choices made so far among work free to run in either order, as a schedule string (``WorkOrdering``).
    var schedule: String { state.withLock { WorkOrdering.spell($0.chooser?.choices ?? []) } }

    /// What the chooser made of the run so far (its choices, their candidates, its departures), or `nil` for the
    /// fixed order, which makes no choice.
    var choicesMade: WorkChooser? { state.withLock { $0.chooser } }

    /// Whether this run's timing followed from an instant tried in a window (``CoordinatorState/timedFromAWindow``).
    var timedFromAWindow: Bool { state.withLock { $0.timedFromAWindow } }

    /// Declares work on each of `queues` independent of work on the others, for an exhaustive exploration.
    func declareIndependent(_ queues: [SimulatedQueue]) {
        state.withLock { $0.declareIndependent(queues) }
    }

    /// The last pieces of work that ran before the step limit stopped a run, or `nil` if it never did.
    var livelock: [PendingWork]? { state.withLock { $0.livelock } }

    /// The deadlock an exploration's run ran into, if any (``CoordinatorState/deadlock``).
    var deadlock: Deadlock? { state.withLock { $0.deadlock } }

    /// Whether nothing is pending.
    var isIdle: Bool { state.withLock { $0.pendingCount == 0 } }

    private func misuse(_ message: String) -> Never {
        fatalError("ExecTesting: TestCoordinator: \(message)")
    }
}

extension CoordinatorState.EntryAction {
    fileprivate var isRunner: Bool {
        if case .proceedAsRunner = self { return true }
        return false
    }
}

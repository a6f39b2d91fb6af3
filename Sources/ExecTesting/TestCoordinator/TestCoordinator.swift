// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

public import ExecKit

/// Deterministic virtual time for callback code, timers and async code: a test of an hour of timeouts runs in
/// milliseconds and gives the same result every time. <!-- G-virtual-deterministic -->
///
/// ```swift
/// let coordinator = TestCoordinator()
/// let model = Model(context: coordinator.main, clock: coordinator.clock)
/// model.start()
/// coordinator.advance(by: .seconds(30))
/// #expect(model.state == .timedOut)
/// ```
///
/// The coordinator hands out contexts (``direct``, ``main``, ``mainAsync``, ``global``, ``serialQueue(named:type:)``)
/// that behave like their real counterparts, a ``clock`` and a ``taskExecutor``. Nothing they schedule runs on its
/// own: blocks, timer firings, clock wake-ups and task jobs wait in the coordinator until the test calls
/// ``runUntilIdle()``, ``advance(by:)`` or ``advance(to:)-(DispatchTime)``.
///
/// - Ordering: work runs on the calling thread, one piece at a time, in deadline order; work due at the same instant
///   runs in the order it was scheduled. Virtual time moves only when the test advances it.
///   <!-- G-virtual-deterministic -->
/// - Simulated queues: the coordinator knows which simulated queue is running, so `main.invoke` is immediate exactly
///   inside the simulated main queue, `isCurrent` answers for each context, and ``currentQueueName`` names the
///   queue. <!-- G-virtual-main-inline-inside G-virtual-current-queue-name --> `invokeSync` onto another simulated
///   queue runs the block inline (the one real thread enters the queue instead of waiting for it), after the work
///   already queued on a serial queue; <!-- G-virtual-invokesync-inline G-virtual-invokesync-waits --> entering a
///   `.mutex` queue from inside itself stops the program with a message, as the real ones
///   do. <!-- G-virtual-mutex-reentry-stops -->
/// - Thread-safety: any thread may schedule or cancel work; it runs only inside the test's calls.
///   <!-- G-virtual-other-threads-schedule -->
/// - Cost: scheduling, running and cancelling each cost O(log n) in the number of pending pieces of work.
///   <!-- G-virtual-cost-log-n -->
public final class TestCoordinator: TaskLauncher {
    let storage: CoordinatorStorage
    private let mainQueue: SimulatedQueue
    private let globalQueue: SimulatedQueue
    let globalExecutor: SimulatedTaskExecutor
    /// The tasks `task(priority:_:)` started that have not finished, for an exploration's hang report.
    let launchedTasks = LaunchedTasks()

    /// Looks like `Exec.direct`: runs blocks on the caller's thread before `invoke` returns; `isCurrent` is
    /// `true`. <!-- G-virtual-direct --> Its `invokeAsync`, timers and task jobs go to the simulated ``global`` queue,
    /// as the real `.direct`'s go to a global queue. <!-- G-virtual-direct-async-global -->
    public let direct: Exec

    /// Looks like `Exec.main`: `invoke` runs the block at once when called from work running in the simulated main
    /// queue, and queues it there otherwise (also from the test's own code, which runs in no simulated queue).
    /// <!-- G-virtual-main-inline-inside -->
    public let main: Exec

    /// Looks like `Exec.mainAsync`: always queues on the simulated main queue, in FIFO order with ``main``'s blocks.
    /// <!-- G-virtual-mainasync-fifo -->
    public let mainAsync: Exec

    /// Looks like a global concurrent queue (`Exec.utility` and its siblings): always queues. Its blocks still run one
    /// at a time, in time order (explored with `interleavesGlobalBlocks: true`, each on a thread of its own, stopping
    /// part-way); `isCurrent` is `false`, as for a real global queue, but ``currentQueueName`` says `"global"`.
    /// <!-- G-virtual-global-queued -->
    public let global: Exec

    /// A `Clock` reading the coordinator's virtual time; see ``VirtualClock``.
    public let clock: VirtualClock

    /// Creates a coordinator at the start of virtual time, `now.uptimeNanoseconds == 125` (see ``now``), with nothing
    /// pending.
    ///
    /// - Parameters:
    ///   - recordsCallSites: Whether each scheduling (a block, a timer, a task job, a clock sleep) records its
    ///     caller, so that ``pendingWork`` and ``assertNoPendingWork(fileID:line:reportFailure:)`` name the source line
    ///     that scheduled each pending item (``PendingWork/callSite``). A scheduling walks the stack's frame pointers,
    ///     inside the thread's stack only, and looks the path up among those seen before: 750 to 1,500 instructions
    ///     with the depth of the stack, and no allocation. A path not seen before in the process keeps its return
    ///     addresses (8 allocations, about 2 µs). Where `perform` or a clock sleep schedules for a task, the task's
    ///     async callers are also read, with checked reads that cannot fault (a system call, 2 to 5 µs). Recording
    ///     never crashes, whatever the stack holds: frames without frame pointers, system libraries, thunks, async
    ///     frames. Nothing is symbolicated until a call site is read. Measured (`Benchmarks/InstructionCounts`, Linux
    ///     x86-64, release build): a timer scheduled and run costs 1.12x the instructions of a block through a plain
    ///     binary heap of closures with it, 0.92x without. On Apple platforms before macOS 26 and its siblings, which
    ///     lack the toolchain's `Runtime` module, nothing is recorded. <!-- G-virtual-call-site-never-crashes -->
    ///     <!-- G-virtual-call-site G-virtual-call-site-cost G-virtual-call-sites-optional -->
    ///   - hopLatency: How much virtual time each asynchronous hop takes: a block queued by `invoke` or `invokeAsync`,
    ///     or a task job, may start this long after it was scheduled instead of at once (timers and sleeps keep their
    ///     deadlines). The latency delays when a block starts, never its place in its serial queue: it joins the
    ///     queue's FIFO when it is queued, and a block queued behind it waits for it. Zero unless given; CwlUtils'
    ///     `DebugContextCoordinator` took 1 ns. With a latency, hops run inside ``advance(by:)`` or
    ///     ``run(upTo:fileID:line:reportFailure:)``, not ``runUntilIdle()``, and an `invokeSync` onto a serial queue runs
    ///     after the blocks queued there before it that may start, not behind a hop still in flight.
    ///     <!-- G-virtual-hop-latency G-explore-hop-keeps-fifo -->
    ///   - hopLatencySpread: How much longer a hop may take under an exploring `ordering`: each hop then starts from
    ///     `hopLatency` to `hopLatency + hopLatencySpread` after it was queued, as the ordering chooses (the fixed
    ///     order, `hopLatency`), never before the block ahead of it in its serial queue (a fast one waits behind a slow
    ///     one). Zero unless given. <!-- G-explore-hop-spread -->
    ///   - ordering: How work that is free to run in either order is ordered: ``WorkOrdering/fixed`` (the default,
    ///     the same run every time), or a seeded exploring order, as <doc:FindingOrderingBugs> describes.
    public convenience init(
        recordsCallSites: Bool = true, hopLatency: Duration = .zero, hopLatencySpread: Duration = .zero,
        ordering: WorkOrdering = .fixed
    ) {
        self.init(
            recordsCallSites: recordsCallSites, hopLatency: hopLatency, hopLatencySpread: hopLatencySpread,
            ordering: ordering, stepLimit: nil)
    }

    /// A coordinator that runs at most `stepLimit` pieces of work (`nil`: no limit), for an exploration's runs.
    init(
        recordsCallSites: Bool, hopLatency: Duration, hopLatencySpread: Duration, ordering: WorkOrdering,
        stepLimit: Int?, interleavesGlobalBlocks: Bool = false
    ) {
        storage = CoordinatorStorage(
            recordsCallSites: recordsCallSites, hopLatency: hopLatency, hopLatencySpread: hopLatencySpread,
            ordering: ordering, stepLimit: stepLimit, interleavesGlobalBlocks: interleavesGlobalBlocks)
        mainQueue = SimulatedQueue(name: "main", owner: storage)
        globalQueue = SimulatedQueue(name: "global", owner: storage, isConcurrent: true)
        globalExecutor = SimulatedTaskExecutor(storage: storage, queue: globalQueue)
        let mainExecutor = SimulatedTaskExecutor(storage: storage, queue: mainQueue)
        let mainSerialExecutor = SimulatedContext.serialExecutor(for: mainQueue, storage: storage)
        let global = Exec.custom(
            SimulatedContext(role: .global, queue: globalQueue, storage: storage, executor: globalExecutor, global: nil)
        )
        self.global = global
        direct = .custom(
            SimulatedContext(
                role: .direct, queue: globalQueue, storage: storage, executor: globalExecutor, global: global))
        main = .custom(
            SimulatedContext(
                role: .main, queue: mainQueue, storage: storage, executor: mainExecutor, global: global,
                serialExecutor: mainSerialExecutor))
        mainAsync = .custom(
            SimulatedContext(
                role: .mainAsync, queue: mainQueue, storage: storage, executor: mainExecutor, global: global,
                serialExecutor: mainSerialExecutor))
        clock = VirtualClock(storage: storage)
    }

    /// Drops whatever is still pending, as ``discardPendingWork()`` does: with the coordinator gone, nothing can run it.
    /// Task and actor jobs enqueued afterwards (a sleeping task resumed with `CancellationError`) run on the global
    /// concurrent executor, so such a task still finishes.
    deinit { storage.close() }

    /// A new simulated serial queue.
    ///
    /// - Parameters:
    ///   - name: The queue's name, which ``currentQueueName`` and ``pendingWork`` report; names need not be unique.
    ///   - type: How it behaves, like `Exec.queue(someQueue, type)`: `.serialAsync` (the default, like
    ///     `Exec.asyncQueue(label:qos:)`: `invoke` queues, `invokeSync` from inside runs inline), `.mutex` (like
    ///     `Exec.syncQueue(label:qos:)`: `invoke` runs at once; entering it from inside itself stops the program with a
    ///     message) or `.conditionallyAsync` (immediate inside the queue, queued otherwise).
    ///     <!-- G-virtual-serial-queue-types -->
    /// - Precondition: `type` is serial; a concurrent type stops the program with a message (use ``global``).
    ///   <!-- G-virtual-serial-queue-concurrent-stops -->
    /// - Cost: ten small allocations; queues are independent of each other and of the coordinator's lifetime.
    ///   <!-- G-virtual-serial-queue-cost -->
    public func serialQueue(named name: String, type: ExecutionType = .serialAsync) -> Exec {
        guard type.isSerial else {
            fatalError(
                "ExecTesting: serialQueue(named: \"\(name)\", type: \(type)) needs a serial type (.serialAsync, .mutex "
                    + "or .conditionallyAsync); use coordinator.global for a concurrent queue.")
        }
        let queue = SimulatedQueue(name: name, owner: storage, isMutex: type == .mutex)
        let executor = SimulatedTaskExecutor(storage: storage, queue: queue)
        return .custom(
            SimulatedContext(
                role: .serial(type), queue: queue, storage: storage, executor: executor,
                global: global,
                serialExecutor: SimulatedContext.serialExecutor(for: queue, storage: storage)))
    }

    // MARK: Virtual time

    /// The coordinator's virtual time, which is also what `timestamp()` answers on its contexts. It moves only inside
    /// ``advance(by:)``, ``advance(to:)-(DispatchTime)`` and ``run(upTo:fileID:line:reportFailure:)``: to each piece
    /// of work's deadline as it runs, then to the target. <!-- G-virtual-advance -->
    ///
    /// It starts at 125 ns of uptime (`DispatchTime(uptimeNanoseconds: 125)`), not at 0: Dispatch reads
    /// `DispatchTime(uptimeNanoseconds: 0)` as "now" and would add the machine's uptime to `now + .seconds(1)`. So
    /// `TestCoordinator().now + .seconds(1)` is `DispatchTime(uptimeNanoseconds: 1_000_000_125)`; ``elapsed`` counts
    /// from the start. <!-- G-virtual-start-125ns -->
    ///
    /// - Rounding: virtual time counts whole nanoseconds, but on Apple Silicon (and iOS devices) a `DispatchTime`
    ///   counts ticks of 125/3 ns. Instants 125 ns apart from the start (every whole microsecond, millisecond or
    ///   second of ``elapsed``) convert exactly; others round to a whole tick on the way out, and an
    ///   ``advance(to:)-(DispatchTime)`` to such an instant may move up to 41 ns further. ``VirtualClock`` instants
    ///   and ``elapsed`` are exact everywhere. <!-- G-virtual-start-125ns -->
    public var now: DispatchTime { DispatchTime(uptimeNanoseconds: storage.now) }

    /// How far virtual time has moved since the coordinator was made: `.seconds(10)` after `advance(by: .seconds(10))`
    /// on a new coordinator. O(1); takes the coordinator's lock.
    public var elapsed: Duration { .nanoseconds(storage.now - CoordinatorState.start) }

    /// Runs everything due now, including work that the work schedules for now, until nothing due now is left.
    /// Virtual time does not move. <!-- G-virtual-run-until-idle -->
    ///
    /// - Precondition: not called from inside work the coordinator is running, nor while another thread runs it.
    ///   <!-- G-virtual-drive-misuse-stops -->
    public func runUntilIdle() {
        storage.run(until: storage.now)
    }

    /// Moves virtual time forward by `duration`, running every piece of work due on the way in deadline order, with
    /// ``now`` set to each one's deadline while it runs; then ``now`` is `duration` later than before.
    /// <!-- G-virtual-advance -->
    ///
    /// - Precondition: `duration` is not negative; not called from inside work the coordinator is running.
    ///   <!-- G-virtual-drive-misuse-stops -->
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "ExecTesting: advance(by:) needs a non-negative duration, got \(duration).")
        let target = VirtualClock.Instant(nanoseconds: storage.now).advanced(by: duration)
        storage.run(until: target.nanoseconds)
    }

    /// Moves virtual time forward to `deadline`, running every piece of work due by then, as ``advance(by:)`` does.
    /// A deadline that has passed moves nothing and runs what is due now, as ``runUntilIdle()`` does.
    /// <!-- G-virtual-advance -->
    public func advance(to deadline: DispatchTime) {
        storage.run(until: deadline.uptimeNanoseconds)
    }

    /// Moves virtual time forward to `deadline` on ``clock``; see ``advance(to:)-(DispatchTime)``.
    public func advance(to deadline: VirtualClock.Instant) {
        storage.run(until: deadline.nanoseconds)
    }

    /// Runs everything pending, moving virtual time to each piece of work's deadline in turn, until nothing is pending:
    /// `advance` without a target, like swift-clocks' `TestClock.run()` and combine-schedulers' `TestScheduler.run()`.
    /// Afterwards ``now`` is the deadline of the last work that ran (unchanged if nothing was pending).
    ///
    /// A periodic timer never ends, so the run stops at a bound: once nothing more is due within `maximum` of virtual
    /// time from the start of the call, it reports a failure listing what is still pending (as
    /// ``assertNoPendingWork(fileID:line:reportFailure:)`` does), with time left at the last deadline reached.
    /// <!-- G-virtual-run-to-completion -->
    ///
    /// ```swift
    /// service.start()        // retries three times, 5 s apart, then gives up
    /// coordinator.run()
    /// #expect(service.state == .failed)
    /// ```
    ///
    /// - Parameters:
    ///   - maximum: How far virtual time may move; one hour unless given.
    ///   - fileID: Named in the message; defaults to the caller's file.
    ///   - line: Named in the message; defaults to the caller's line.
    ///   - reportFailure: Receives the message when work is still pending at the bound. By default (`nil`) the message
    ///     is recorded as an issue of the running Swift Testing test, at `fileID`:`line`, and the test goes on;
    ///     outside one it stops the program. Pass `{ XCTFail($0) }` under XCTest, or `{ fatalError($0) }` to stop in
    ///     every case. <!-- G-virtual-run-to-completion -->
    /// - Precondition: `maximum` is not negative; not called from inside work the coordinator is running.
    ///   <!-- G-virtual-drive-misuse-stops -->
    public func run(
        upTo maximum: Duration = .seconds(3_600),
        fileID: StaticString = #fileID,
        line: UInt = #line,
        reportFailure: ((String) -> Void)? = nil
    ) {
        precondition(maximum >= .zero, "ExecTesting: run(upTo:) needs a non-negative duration, got \(maximum).")
        let bound = VirtualClock.Instant(nanoseconds: storage.now).advanced(by: maximum)
        let stopped = storage.run(until: bound.nanoseconds, movesToLimit: false)
        if stopped { return }
        reportPendingWork(
            fileID: fileID, line: line,
            reason: "run(upTo: \(maximum)) reached its bound with work still pending (a periodic timer never ends: "
                + "cancel it first, or use advance(by:))",
            reportFailure: reportFailure)
    }

    /// Ends the `runUntilIdle()`, `advance` or `run(upTo:)` call in progress once the work calling this has
    /// returned: nothing more runs in that call, and virtual time stays at this work's deadline (an `advance` does not
    /// go on to its target). What is pending stays pending, for the test's next call. <!-- G-virtual-stop -->
    ///
    /// Call it from inside work the coordinator is running (a block, a timer handler, a task job); anywhere else it
    /// does nothing. <!-- G-virtual-stop --> CwlUtils' `DebugContextCoordinator` offered the same, for tests that end
    /// a scenario from a handler.
    public func stop() {
        storage.stop()
    }

    /// Drops everything pending (blocks, timer firings, periodic timers, task jobs, sleeps) without running it, and
    /// releases it at once, in the order it would have run (as CwlUtils' coordinator did), so whatever it captured is
    /// released too (objects that end their work in `deinit` end it now). Virtual time does not move.
    /// <!-- G-virtual-discard-releases G-virtual-discard-order -->
    ///
    /// No task is left unfinished by it: <!-- G-virtual-discard-no-task-unfinished -->
    /// - A task's job dropped runs on Swift's global executor instead, and an actor's on a private serial queue of the
    ///   actor's executor, one at a time. The task's later jobs come back to the coordinator as new work (they run at
    ///   the next `runUntilIdle()` or `advance`), or, once the coordinator is gone, run on real threads too.
    /// - A task asleep on ``clock`` resumes with `CancellationError`: for a task on the coordinator, that is a new job.
    /// - A `perform` whose block was dropped runs that block on a global queue, so its caller resumes.
    ///
    /// May be called from anywhere, inside running work included; the coordinator's `deinit` does the same, and from
    /// then on the coordinator's contexts drop whatever they are given the same way.
    /// <!-- G-virtual-discard-releases -->
    public func discardPendingWork() {
        storage.discardAll()
    }

    // MARK: Where work runs

    /// The name of the simulated queue the caller runs in (`"main"`, `"global"` or a serial queue's name), or `nil` when
    /// the caller is not running coordinator work (the test's own code, another thread that no such work waits for, a
    /// sleep's wake-up, ``direct`` work called from the test).
    ///
    /// Inside an inline `invokeSync` it names the queue entered last; in a block that coordinator work waits for in an
    /// ExecKit `invokeSync` on a real queue, on whichever thread, the queue that work runs in. Reads the thread's
    /// record of entered contexts.
    /// <!-- G-virtual-current-queue-name -->
    public var currentQueueName: String? { storage.currentQueueName }

    /// The choices this coordinator has made so far among work free to run in either order (see ``WorkOrdering``), as a
    /// string that ``WorkOrdering/replay(_:)`` takes to make the same run again: empty with the fixed order.
    /// <!-- G-explore-replay -->
    public var schedule: String { storage.schedule }
}

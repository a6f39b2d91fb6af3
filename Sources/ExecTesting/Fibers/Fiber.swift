// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecDispatch
import ExecKit
@_spi(ExecTesting) import ExecMutex
import Synchronization

/// A block on the concurrent queue of a coordinator exploring with `interleavesGlobalBlocks: true`, run on a thread of
/// its own so that it can stop part-way:
/// at each ExecKit call it makes onto the coordinator, and each lock it takes, it parks, and the rest of it becomes a
/// piece of work of its queue that the exploration orders against the other work. Two such blocks then interleave at
/// those points, as real threads can (issue #39, item 5).
///
/// One thread runs at a time. The baton passes between the fiber and the thread that started or resumed it (the
/// runner, or a thread that had to finish the fiber to take a lock it holds) through two ``Handoff``s, and with it the
/// coordinator's runner role. The fiber is its thread's ``LockObserver``, so it sees that thread's lock acquisitions.
///
/// Its thread is a task's, run on an executor of its own, so that the block sees the test's task-local values (Swift
/// Testing's current test and known-issue scope among them) as it would running inline.
final class Fiber: LockObserver, @unchecked Sendable {
    /// Where the block runs (the coordinator's global queue).
    let queue: SimulatedQueue
    /// Where the block was scheduled: its resumptions are described with it.
    let origin: RecordedCallSite?
    let storage: CoordinatorStorage
    private let locks: FiberLocks

    private let go = Handoff()
    private let back = Handoff()

    // Touched only by the thread holding the baton (ordered by the handoffs).

    /// The thread the fiber hands the baton back to, and the runner role with it.
    private var resumer: UInt = 0
    /// The fiber's own thread, once started.
    private(set) var thread: UInt = 0
    /// Inside an inline `invokeSync` or isolated run: the fiber stands in a queue there, so it does not park.
    var nesting = 0
    /// How many of ExecKit's own locks (unobserved mutexes) the fiber holds: it does not park while it holds one, since
    /// nothing would know to wait for it (ExecKit calls back into the coordinator under a few of them).
    private var unwatchedHeld = 0
    /// Whether the block started at an instant tried in a window (see ``ExploringSteps``): so do its resumptions.
    private(set) var isShifted = false
    /// The pending work that resumes the fiber, while it is parked at an interleaving point (`nil` once discarded).
    var resumption: WorkToken?
    /// The lock the fiber waits for, while it is parked until another fiber lets go of it.
    var awaitedLock: ObjectIdentifier?
    /// Whether the block has reached an interleaving point yet: the first one needs no park, since nothing the block
    /// did before it is seen by other work (parking there would only repeat the choice of when the block starts).
    private var hasActed = false
    /// Whether the block has returned.
    private(set) var isFinished = false
    /// Set when the coordinator is gone: the fiber runs to its end without parking, alongside whatever else runs.
    /// Atomic: several threads may release a fiber.
    private let released = Atomic(false)
    var freeRunning: Bool { released.load(ordering: .acquiring) }

    private init(queue: SimulatedQueue, origin: RecordedCallSite?, storage: CoordinatorStorage, locks: FiberLocks) {
        self.queue = queue
        self.origin = origin
        self.storage = storage
        self.locks = locks
    }

    /// The fiber running on the calling thread, if it is one of `storage`'s and may park.
    static func parkable(of storage: CoordinatorStorage) -> Fiber? {
        guard let fiber = LockObserver.current as? Fiber, fiber.storage === storage, fiber.mayPark else { return nil }
        return fiber
    }

    /// Whether the fiber may park now: not inside a nested run, and not running free.
    var mayPark: Bool { nesting == 0 && unwatchedHeld == 0 && !freeRunning }

    /// Runs `work` (a block of `queue`) on a new fiber, until it finishes or parks; the caller holds the baton.
    static func start(
        _ work: ScheduledWork, in queue: SimulatedQueue, storage: CoordinatorStorage, locks: FiberLocks
    ) {
        let fiber = Fiber(queue: queue, origin: work.origin, storage: storage, locks: locks)
        locks.started(fiber)
        fiber.resumer = ThreadIdentity.current
        fiber.isShifted = storage.attribute(shifted: nil)
        let target = storage.captureTarget
        let body = work.body
        Task(executorPreference: FiberExecutor()) {
            fiber.run(body, capturingInto: target)
        }
        fiber.waitForTurn()
    }

    /// How many fibers of any coordinator are started and not finished, in this process. Each holds a thread (one of
    /// Dispatch's, whose pool has about 255); a run that fails as a lock deadlock keeps its fibers' for good.
    private static let liveInProcess = Atomic(0)
    /// How many may be: past it, a block runs whole (``mayStart``).
    static let processLimit = 64

    /// Whether another fiber may start now (see ``processLimit``).
    static var mayStart: Bool { liveInProcess.load(ordering: .relaxed) < processLimit }

    /// How long the thread that started or resumed a fiber waits for it to stop or finish before it stops the program.
    static let turnLimitSeconds = 60

    /// On the thread that handed the baton over: waits for it to come back, or stops the program with a message.
    private func waitForTurn() {
        back.wait(
            stoppingAfter: Self.turnLimitSeconds,
            "ExecTesting: \(description) ran \(Self.turnLimitSeconds) s without reaching its next ExecKit call or "
                + "lock, nor its end. It may be waiting for a lock ExecTesting cannot see (Synchronization.Mutex, "
                + "NSLock, os_unfair_lock) that another block holds while it is stopped, or for work that cannot run "
                + "meanwhile (a semaphore a later block signals). Use LockedBox or PThreadMutex for locks that blocks "
                + "on the global queue share.")
    }

    private func run(_ body: @Sendable () -> Void, capturingInto target: CaptureTarget?) {
        Self.liveInProcess.add(1, ordering: .relaxed)
        defer { Self.liveInProcess.subtract(1, ordering: .relaxed) }
        thread = ThreadIdentity.current
        storage.handRunner(to: thread)
        LockObserver.observing(with: self, seesEveryMutex: true) {
            GlobalJobCapture.runningWork(for: target) {
                withExtendedLifetime(queue) { EnteredContexts.entering(queue.key, body) }
            }
        }
        isFinished = true
        locks.finished(self)
        if !freeRunning { storage.handRunner(to: resumer) }
        back.signal()
    }

    /// Gives the baton to the parked fiber and waits until it parks again or finishes. The caller holds the baton.
    func resume() {
        resumption = nil
        resumer = ThreadIdentity.current
        go.signal()
        waitForTurn()
    }

    /// An interleaving point, before an ExecKit call or a lock: the rest of the block becomes a piece of work of its
    /// queue, and the fiber parks until the coordinator runs it. Called on the fiber's thread; does nothing at the
    /// block's first point, or once the coordinator is gone.
    func yield() {
        guard mayPark else { return }
        guard hasActed else { return hasActed = true }
        guard storage.queueResumption(of: self) else { return }
        park()
    }

    /// Hands the baton back and waits until it comes back (or the fiber is released). On the fiber's thread.
    func park() {
        storage.handRunner(to: resumer)
        back.signal()
        go.wait()
        if !freeRunning { storage.handRunner(to: thread) }
    }

    /// Lets a parked fiber run to its end without parking again, on its own thread, alongside whatever else runs:
    /// for a fiber whose coordinator is gone.
    func release() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        go.signal()
    }

    /// What an exploration's report says of the block.
    var description: String {
        "the block on \"\(queue.name)\"" + (origin?.callSite.map { " scheduled at \($0)" } ?? "")
    }

    // MARK: LockObserver

    override func willLock(_ mutex: PThreadMutex, blocking: Bool) {
        if mutex.observed { locks.willLock(mutex, blocking: blocking, on: self) }
    }

    override func didLock(_ mutex: PThreadMutex) {
        if mutex.observed { locks.didLock(mutex, by: self) } else { unwatchedHeld += 1 }
    }

    override func didUnlock(_ mutex: PThreadMutex) {
        if mutex.observed { locks.didUnlock(mutex, by: self) } else { unwatchedHeld -= 1 }
    }
}

/// A task executor with one thread of its own (a serial Dispatch queue's): a fiber's task runs on it, and may block it
/// while the fiber is parked without holding up any other executor.
final class FiberExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "ExecTesting.Fiber")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

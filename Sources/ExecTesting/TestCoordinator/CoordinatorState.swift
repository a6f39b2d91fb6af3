// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// Everything a ``TestCoordinator`` knows, as a plain value: virtual time, the pending work in time order, which thread
/// runs its work, and which simulated queues callers waiting in an inline `invokeSync` hold. Which queues a thread is
/// inside is not here: ExecKit's one record of entered contexts (`EnteredContexts`) says, for simulated queues as for
/// real ones.
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

    /// Keys of pending work in run order; a key whose slot no longer holds its sequence is stale (cancelled work).
    private var heap = WorkHeap()
    /// The pending work, indexed by ``WorkToken/slot``.
    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    private var nextSequence: UInt64 = 0
    /// How many pieces of work are pending (the heap also holds stale keys).
    private(set) var pendingCount = 0

    /// The thread running coordinator work (in `CoordinatorStorage.run(until:)` or an inline `invokeSync`), or zero.
    private(set) var runner: UInt = 0
    /// Set by `stop()` from inside running work: the run in progress hands out no more work.
    private var stopRequested = false
    /// Set once the coordinator is gone: nothing will run work again, so ``schedule(_:at:)`` refuses it.
    private(set) var isClosed = false
    /// Chooses among work free to run in either order; `nil` for the fixed order, which needs no choosing.
    private(set) var chooser: WorkChooser?
    /// Whether there is a ``chooser``: a plain flag, which the hot paths test without touching the chooser's storage.
    private let chooses: Bool

    /// For an exploration's run: how many more pieces of work may run (`nil`: no limit). Work due once it is zero is
    /// not run: the run has gone on too long, a livelock (see ``livelock``).
    private var stepsLeft: Int?
    /// The last pieces of work handed out, while there is a limit, oldest first.
    private var recentWork: [PendingWork] = []
    /// While there is a limit: the piece of work handed out last in the run in progress, `nil` between runs. What a
    /// deadlock report names as the work that waited.
    private var running: PendingWork?
    /// The last pieces of work that ran before the step limit stopped the run, or `nil` if it did not.
    private(set) var livelock: [PendingWork]?
    /// The serial queues whose work the test declared independent of work on the others
    /// (`TestCoordinator.declareIndependent(_:)`): an exhaustive exploration runs one ordering of such work.
    private var independentQueues: Set<ObjectIdentifier> = []
    /// How many schedulings, cancellations and hand-outs happened since the last choice's pick was handed out: zero
    /// at the next choice means only that piece of work ran, and it scheduled and cancelled nothing.
    private var effectsSinceChoice = 0

    /// Buffers that choosing among due work reuses from step to step, so that a step allocates nothing.
    private var scratch = Scratch()

    private struct Scratch: Sendable {
        var candidates: [WorkHeap.Key] = []
        var serialHeads: [(queue: ObjectIdentifier, index: Int)] = []
        var walk: [Int] = []
    }

    /// For an exploration's run: the first deadlock an inline `invokeSync` ran into, or `nil`. Once there is one, no
    /// more work runs (the step limit drops to zero): the run has failed.
    private(set) var deadlock: Deadlock?
    /// With a hop spread: the latest arrival given to a hop on each serial queue, which later hops there never beat.
    private var latestHopArrival: [ObjectIdentifier: UInt64] = [:]

    /// A coordinator's state at the start of virtual time, nothing pending, ordering work as `ordering` says, and
    /// running at most `stepLimit` pieces of work (no limit when `nil`).
    init(ordering: WorkOrdering = .fixed, stepLimit: Int? = nil) {
        chooser = ordering.mode == .fixed ? nil : WorkChooser(ordering)
        chooses = ordering.mode != .fixed
        stepsLeft = stepLimit
    }

    /// Whether the step limit forbids running `key`'s work, which is due; records the livelock if so.
    private mutating func limitReached(before key: WorkHeap.Key) -> Bool {
        guard stepsLeft == 0 else { return false }
        if livelock == nil && deadlock == nil { livelock = recentWork }
        return true
    }

    /// In an exploration's run (a step limit is set), records the first deadlock and stops handing out work, and
    /// returns `true`: the entry goes ahead, so that the caller's `invokeSync` returns and the run ends as a failure.
    /// Outside an exploration, returns `false`: the entry fails and the program stops with a message, as it always did.
    private mutating func failsRun(with waits: String) -> Bool {
        guard stepsLeft != nil else { return false }
        // The innermost work running for a waiting caller, else the work this run handed out last.
        if deadlock == nil { deadlock = Deadlock(waits: waits, work: waitingCallers.innermostWork ?? running) }
        stepsLeft = 0
        return true
    }

    // MARK: Scheduling

    /// Adds `work`, due at `deadline` (or now, if that has passed), after all work already due then. A periodic
    /// timer's first firing is due at its ``ScheduledWork/Repetition/deadline``.
    ///
    /// - Complexity: O(log n).
    mutating func schedule(_ work: ScheduledWork, at deadline: UInt64) -> WorkToken {
        guard !isClosed else { return .none }  // the caller releases the refused work, after unlocking
        let sequence = nextSequence
        nextSequence += 1
        // Read only when choosing among due work: the fixed order pays nothing for it.
        let serialQueue: ObjectIdentifier? =
            if chooses, let queue = work.queue, !queue.isConcurrent { ObjectIdentifier(queue) } else { nil }
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = Slot(sequence: sequence, id: sequence, work: work, serialQueue: serialQueue)
        } else {
            slot = slots.count
            slots.append(Slot(sequence: sequence, id: sequence, work: work, serialQueue: serialQueue))
        }
        heap.insert(.init(deadline: max(deadline, now), sequence: sequence, slot: slot))
        pendingCount += 1
        effectsSinceChoice += 1
        return WorkToken(slot: slot, id: sequence)
    }

    /// Removes the work `token` names, if it is still pending, and returns it for the caller to release after
    /// unlocking.
    ///
    /// - Complexity: O(1), amortized: the key stays in the heap until it surfaces or until stale keys outnumber live
    ///   ones, when the heap is rebuilt in O(n).
    mutating func cancel(_ token: WorkToken) -> ScheduledWork? {
        guard token.slot < slots.count, slots[token.slot].id == token.id else { return nil }
        effectsSinceChoice += 1
        let work = take(token.slot)
        if heap.count > 64 && heap.count > 2 * pendingCount {
            heap.removeAll { key in slots[key.slot].sequence != key.sequence }
        }
        return work
    }

    /// Marks the coordinator gone (work scheduled from now on is refused), and empties every slot, returning the work.
    mutating func close() -> [ScheduledWork] {
        isClosed = true
        return removeAll()
    }

    /// Empties every slot and returns the work, in the order it would have run (CwlUtils' coordinator released its
    /// queues in that order, and a teardown may depend on it).
    mutating func removeAll() -> [ScheduledWork] {
        let all = pendingInOrder.map(\.work)
        slots = []
        freeSlots = []
        heap = WorkHeap()
        pendingCount = 0
        return all
    }

    /// Empties `slot` and returns its work, moved out without a copy.
    private mutating func take(_ slot: Int) -> ScheduledWork? {
        slots[slot].id = .max
        slots[slot].sequence = .max
        freeSlots.append(slot)
        pendingCount -= 1
        return slots[slot].work.take()
    }

    // MARK: Running

    /// What ``startRun(on:)`` and ``enter(_:on:)`` answer.
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
        effectsSinceChoice += 1  // what the test did since the last run: a sleeping candidate must wake
        return .proceed
    }

    /// How many runs (`runUntilIdle`, `advance`, `run(upTo:)`) have started: the stall watch compares two readings.
    private(set) var runsStarted: UInt64 = 0

    /// The queue of a pending task or actor job, when no run is in progress and none has started since `runs`; `nil`
    /// otherwise. For the stall watch: such a job waits for a test that is not driving the coordinator.
    func stalledJobQueue(sinceRuns runs: UInt64) -> String?? {
        guard runner == 0, runsStarted == runs else { return nil }
        for slot in slots {
            if let work = slot.work, case .job = work.kind { return .some(work.queue?.name) }
        }
        return nil
    }

    /// Removes and returns the next work due at or before `limit`, after moving virtual time to its deadline (the
    /// caller runs it inside its queue); `nil` when nothing more is due by then. A periodic timer stays, due at its
    /// next firing (with a sequence number taken now, before anything its handler schedules). With a ``chooser``, the
    /// next work is its pick among the work free to go next (see ``freeToGoNext(from:)``).
    ///
    /// - Complexity: O(log n), plus O(log n) for each stale key removed on the way; with a chooser, plus the choice
    ///   (see ``freeToGoNext(from:)``).
    mutating func nextDue(until limit: UInt64) -> ScheduledWork? {
        if stopRequested { return nil }
        while let key = heap.first {
            guard slots[key.slot].sequence == key.sequence else {
                heap.removeFirst()  // cancelled: its slot was emptied or reused
                continue
            }
            guard key.deadline <= limit, !limitReached(before: key) else { return nil }
            now = max(now, key.deadline)
            if chooses {
                let candidates = freeToGoNext(from: key)
                let picked = pick(from: candidates)
                scratch.candidates = candidates  // its buffer serves the next step: no allocation per step
                // Another pick's heap key goes stale (its slot is emptied or re-keyed) and is dropped when it surfaces.
                if picked.sequence == key.sequence { heap.removeFirst() }
                let work = handOut(picked)
                // After a choice, count only what the chosen work does; a forced step (one candidate) counts as an
                // effect, so that the next choice does not take it for the chosen work alone.
                // A periodic timer's re-keying (a new sequence number, a heap key) is an effect of its own.
                if candidates.count > 1 { effectsSinceChoice = work?.repetition == nil ? 0 : 1 }
                return work
            }
            heap.removeFirst()
            return handOut(key)
        }
        return nil
    }

    /// The work that may go next when `first` is the earliest live key: everything due at the same instant, less what
    /// a serial queue's FIFO order holds back (only the earliest of each serial queue), in fixed order.
    ///
    /// - Complexity: O(k · q + c log c), for k pieces of work due then, q serial queues among them and c candidates:
    ///   one walk of the heap's keys due then, keeping the earliest of each serial queue.
    private mutating func freeToGoNext(from first: WorkHeap.Key) -> [WorkHeap.Key] {
        assert(heap.first?.sequence == first.sequence, "the walk starts from the heap's first key")
        var candidates = scratch.candidates
        scratch.candidates = []
        candidates.removeAll(keepingCapacity: true)
        // Where each serial queue's earliest key so far sits in `candidates`.
        var serialHeads = scratch.serialHeads
        scratch.serialHeads = []
        serialHeads.removeAll(keepingCapacity: true)
        var stack = scratch.walk
        scratch.walk = []
        defer { (scratch.serialHeads, scratch.walk) = (serialHeads, stack) }
        slots.withUnsafeBufferPointer { slots in
            heap.forEachKey(dueAt: first.deadline, stack: &stack) { key in
                guard slots[key.slot].sequence == key.sequence else { return }  // stale
                guard let id = slots[key.slot].serialQueue else {
                    candidates.append(key)
                    return
                }
                if let head = serialHeads.first(where: { $0.queue == id }) {
                    if key.precedes(candidates[head.index]) { candidates[head.index] = key }
                } else {
                    serialHeads.append((id, candidates.count))
                    candidates.append(key)
                }
            }
        }
        if candidates.count > 1 { candidates.sort { $0.precedes($1) } }
        return candidates
    }

    /// The chooser's pick among `candidates` (at least one, in fixed order); no choice is made, or recorded, when there
    /// is only one.
    private mutating func pick(from candidates: [WorkHeap.Key]) -> WorkHeap.Key {
        guard candidates.count > 1, chooses else { return candidates[0] }
        let (slots, independentQueues) = (self.slots, self.independentQueues)
        let chosen = chooser!.choose(
            among: candidates.count,
            chain: { index in
                let slot = slots[candidates[index].slot]
                return slot.serialQueue.map { .queue($0) } ?? .work(slot.id)
            },
            describe: { index in
                // A live key's slot holds its work (an emptied slot's sequence is `.max`, which no key has).
                let key = candidates[index]
                return PendingWork(slots[key.slot].work!, dueAt: key.deadline, sequence: key.sequence)
            },
            candidate: { index in
                let queue = slots[candidates[index].slot].serialQueue
                return WorkChooser.Candidate(
                    sequence: candidates[index].sequence,
                    independentQueue: queue.flatMap { independentQueues.contains($0) ? $0 : nil })
            },
            quiet: effectsSinceChoice == 0)
        return candidates[chosen]
    }

    /// The sequence number the next scheduling will take: work scheduled from now on has this one or a later one.
    var sequenceBound: UInt64 { nextSequence }

    /// Removes and returns the first work due now in `queue` and scheduled before `bound` (a ``sequenceBound``), for
    /// an inline `invokeSync` onto it: as libdispatch's `sync` does, the caller's block runs after the blocks already
    /// queued there, not after those queued since. Virtual time does not move.
    ///
    /// - Complexity: O(n): a scan of the pending work (inline waits are rare next to scheduling).
    mutating func nextDueNow(in queue: SimulatedQueue, before bound: UInt64) -> ScheduledWork? {
        if stopRequested { return nil }
        var best: WorkHeap.Key?
        for key in heap.unorderedKeys
        where key.deadline <= now && key.sequence < bound && slots[key.slot].sequence == key.sequence {
            guard slots[key.slot].work?.queue === queue else { continue }
            if best.map({ key.precedes($0) }) ?? true { best = key }
        }
        guard let best, !limitReached(before: best) else { return nil }
        // Its heap key goes stale (the slot is emptied or re-keyed) and is dropped when it surfaces.
        return handOut(best)
    }

    /// Hands out the work `key` names, whose heap key was removed or is about to go stale: one-shot work leaves its
    /// slot; a periodic timer stays, re-keyed for its next firing (with a sequence number taken now, before anything
    /// its handler schedules).
    private mutating func handOut(_ key: WorkHeap.Key) -> ScheduledWork? {
        effectsSinceChoice += 1
        if let left = stepsLeft {
            stepsLeft = left - 1
            if recentWork.count == 6 { recentWork.removeFirst() }
            if let work = slots[key.slot].work {
                running = PendingWork(work, dueAt: key.deadline, sequence: key.sequence)
                recentWork.append(running!)
            }
        }
        guard let repetition = slots[key.slot].work?.repetition else { return take(key.slot) }
        let sequence = nextSequence
        nextSequence += 1
        slots[key.slot].sequence = sequence
        slots[key.slot].work?.repetition?.firings += 1
        let firing = slots[key.slot].work.map { firingTime(of: $0, dueAt: repetition.nextDeadline, sequence: sequence) }
        heap.insert(.init(deadline: max(firing ?? repetition.nextDeadline, now), sequence: sequence, slot: key.slot))
        return slots[key.slot].work
    }

    /// When a hop due at `deadline` arrives: then, or, with a ``chooser``, where the chooser puts it in the `spread`
    /// that follows (see ``WorkChooser/offset(within:late:)``). Never before a hop queued earlier on the same serial queue: a fast hop
    /// waits for a slow one ahead of it, so the queue keeps its FIFO order.
    mutating func hopArrival(of work: ScheduledWork, dueAt deadline: UInt64, spread: UInt64) -> UInt64 {
        guard chooses else { return deadline }
        let pending = PendingWork(work, dueAt: deadline, sequence: nextSequence)
        let delay = chooser!.offset(within: spread) { .slowHop(pending, by: $0, spread: spread) }
        let (late, overflow) = deadline.addingReportingOverflow(delay)
        var arrival = overflow ? .max : late
        guard let queue = work.queue, !queue.isConcurrent else { return arrival }
        arrival = max(arrival, latestHopArrival[ObjectIdentifier(queue)] ?? 0)
        latestHopArrival[ObjectIdentifier(queue)] = arrival
        return arrival
    }

    /// When a timer's firing due at `deadline` fires: at the deadline, or, with a ``chooser`` and a leeway, where the
    /// chooser puts it in the leeway (see ``WorkChooser/offset(within:late:)``).
    /// A periodic timer's leeway stops short of its period, so that a late firing never meets the next one.
    ///
    /// - Parameter sequence: The sequence number the firing takes (the next one, unless the caller took it already).
    mutating func firingTime(of work: ScheduledWork, dueAt deadline: UInt64, sequence: UInt64? = nil) -> UInt64 {
        let leeway = work.repetition.map { min(work.leeway, $0.period - 1) } ?? work.leeway
        guard leeway > 0, chooses else { return deadline }
        let pending = PendingWork(work, dueAt: deadline, sequence: sequence ?? nextSequence)
        let delay = chooser!.offset(within: leeway) { .lateInLeeway(pending, by: $0, leeway: leeway) }
        let (late, overflow) = deadline.addingReportingOverflow(delay)
        return overflow ? .max : late
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
        if !stopRequested { now = max(now, limit) }
        stopRequested = false
        runner = 0
        if case .some = running { running = nil }
        effectsSinceChoice += 1  // the test may act before the next run
    }

    /// Lets `thread` enter `queue` for an inline `invokeSync`, or says why it cannot; `isInside` is whether the
    /// thread's record says it is inside `queue` already.
    mutating func enter(_ queue: SimulatedQueue, on thread: UInt, isInside: Bool) -> EntryAction {
        // First: a thread lent a mutex queue by a waiting caller re-enters it, whichever thread that is.
        // Explored, the runner's own re-entry fails the run instead (a lent thread's still stops the program).
        if queue.isMutex && isInside {
            guard runner == thread,
                failsRun(
                    with: "invokeSync onto the mutex queue \"\(queue.name)\" from inside it, directly or through "
                        + "other queues: a real mutex queue would wait for itself")
            else { return .failReentrantMutex(queue) }
        }
        if runner == 0 {
            runner = thread
            effectsSinceChoice += 1  // the test's own inline invokeSync: it may have acted since the last run
            return .proceedAsRunner
        }
        if runner != thread { return .failBusyElsewhere }
        if !isInside, let waits = waitingCallers.cycle(closingOn: queue), !failsRun(with: waits) {
            return .failHeldByWaitingCaller(queue)
        }
        return .proceed
    }

    /// Ends what the matching ``enter(_:on:isInside:)`` allowed.
    mutating func leave(asRunner: Bool) {
        if asRunner {
            runner = 0
            stopRequested = false  // a stop() inside an inline run from the test's own code ends with it
            if case .some = running { running = nil }
        }
    }

    /// Declares work on each of `queues` independent of work on the others (see ``independentQueues``).
    mutating func declareIndependent(_ queues: [SimulatedQueue]) {
        independentQueues.formUnion(queues.map(ObjectIdentifier.init))
    }

    /// Callers waiting in an inline `invokeSync`, and the queues they hold meanwhile.
    private var waitingCallers = WaitingCallers()

    /// Records that the serial queues among `standing` stay held while work runs isolated in `queue` (see
    /// ``WaitingCallers/isolate(in:leaving:work:)``). Returns what ``restore(heldCount:)`` needs.
    mutating func isolate(in queue: SimulatedQueue, leaving standing: [SimulatedQueue]) -> Int {
        waitingCallers.isolate(in: queue, leaving: standing, work: running)
    }

    /// Puts back what ``isolate(in:leaving:)`` changed.
    mutating func restore(heldCount: Int) {
        waitingCallers.restore(count: heldCount)
    }

    // MARK: Inspection

    /// Every pending piece of work with its key, in run order.
    ///
    /// - Complexity: O(n log n).
    var pendingInOrder: [(key: WorkHeap.Key, work: ScheduledWork)] {
        heap.unorderedKeys
            .compactMap { key in
                guard slots[key.slot].sequence == key.sequence, let work = slots[key.slot].work else { return nil }
                return (key, work)
            }
            .sorted { $0.key.precedes($1.key) }
    }

    /// One entry of the slot array: the sequence number of its live heap key (a periodic timer gets a new one for
    /// each firing), its token's ``WorkToken/id``, and the work. An empty slot has `.max` for both numbers, which no key
    /// or token has. The sequence comes first: checking a key reads the slot's first bytes, and the work that follows
    /// usually shares their cache line. Read in place, never copied out, so a check costs no retain.
    private struct Slot: Sendable {
        var sequence: UInt64
        var id: UInt64
        var work: ScheduledWork?
        /// The serial queue the work runs in, as an identity; `nil` for a concurrent queue or none, and on a
        /// coordinator that does not choose. Kept beside the work so that choosing among the work due
        /// (``freeToGoNext(from:)``) reads no reference.
        var serialQueue: ObjectIdentifier?
    }
}

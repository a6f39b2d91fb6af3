// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// The pending work of a ``TestCoordinator`` as libdispatch holds it, as a plain value: timers that have not fired,
/// each serial queue's FIFO of blocks, and the work of the concurrent queue (and of no queue). It moves nothing by
/// itself: ``CoordinatorState`` says which step comes next.
///
/// - A block joins its serial queue's FIFO when it is queued (`invoke`, a task job): a hop's latency delays when it
///   may start, never its place. Only the first block of a FIFO may run.
/// - A timer (and `invoke(after:)`) is *unfired* until its firing, a step of its own; firing puts its block at the end
///   of its queue's FIFO.
/// - Work of the concurrent queue, and of no queue (a sleeping task's wake-up), runs on its own, when due.
///
/// Each piece of work may go in a window of time (a timer's leeway, a hop's spread): ``Slot/earliest`` to
/// ``Slot/latest``. Two heaps keep the keys: ``firings`` (unfired work, by earliest firing) and ``runnable`` (the first
/// block of each serial queue, and the concurrent work, by earliest start). A key is stale once its slot moved on: a
/// key is checked against its slot before use, and dropped when it surfaces.
struct WorkTimeline: Sendable {
    /// Where a slot's work stands.
    enum Phase: UInt8, Sendable {
        case empty
        /// A timer that has not fired: a key in ``firings``.
        case unfired
        /// In its serial queue's FIFO.
        case queued
        /// Concurrent work (or work of no queue) waiting to run: a key in ``runnable``.
        case loose
    }

    /// One piece of pending work (a periodic timer keeps its slot from firing to firing).
    struct Slot: Sendable {
        /// The sequence number of its live key: taken when it was scheduled, and again for each periodic firing.
        var sequence: UInt64
        /// Its token's ``WorkToken/id``: the sequence number it was first scheduled with.
        var id: UInt64
        var phase: Phase
        /// Its serial queue's index in ``fifos``, or -1 for concurrent work and work of no queue.
        var fifo: Int32
        /// The window of its next step: when it may fire (unfired) or start (queued, loose), and when it must.
        var earliest: UInt64
        var latest: UInt64
        var work: ScheduledWork?
    }

    /// A serial queue's blocks, in the order they joined it, as (slot, id) pairs; those before `start` have left.
    struct FIFO: Sendable {
        var entries: [(slot: Int, id: UInt64)] = []
        var start = 0
        /// The slot and sequence of the key in ``runnable`` that stands for the first block, if any.
        var keyed: (slot: Int, sequence: UInt64)?
        /// The queue's unfired timers, as (slot, id) pairs (those fired or cancelled since are dropped on the way):
        /// an exploring coordinator fires a timer due only when the order matters (see
        /// ``CoordinatorState/settle(_:)``), so that a firing is never tried apart from the join it must precede.
        var unfired: [(slot: Int, id: UInt64)] = []
    }

    private(set) var slots: [Slot] = []
    private var freeSlots: [Int] = []
    /// The serial queues' FIFOs, by ``SimulatedQueue/index`` (a concurrent queue's stays empty).
    private(set) var fifos: [FIFO] = []
    /// Keys of unfired work, by earliest firing, then sequence.
    private(set) var firings = WorkHeap()
    /// Keys of the first block of each serial queue and of concurrent work, by earliest start, then sequence.
    private(set) var runnable = WorkHeap()
    /// About how many keys of ``runnable`` are stale (their work handed out or cancelled): past a bound, the heap is
    /// rebuilt, so that walks of the keys due stay proportional to the live ones.
    private var staleRunnable = 0
    /// How many pieces of work are pending.
    private(set) var pendingCount = 0
    /// How many times the pending work changed (added, cancelled, fired, handed out): a choice that finds it as it was
    /// after the last pick knows that the work picked changed nothing (see ``ExploringSteps``).
    private(set) var changes: UInt64 = 0

    // MARK: Adding and removing

    /// Adds `work` as unfired, firing from `earliest` to `latest`, with sequence number `sequence`.
    mutating func plan(_ work: ScheduledWork, sequence: UInt64, earliest: UInt64, latest: UInt64) -> WorkToken {
        let slot = newSlot(work, sequence: sequence, phase: .unfired, earliest: earliest, latest: latest)
        firings.insert(.init(deadline: earliest, sequence: sequence, slot: slot))
        let fifo = Int(slots[slot].fifo)
        if fifo >= 0 { fifos[fifo].unfired.append((slot, sequence)) }
        return WorkToken(slot: slot, id: sequence)
    }

    /// The index in ``fifos`` of `queue`, if work was ever scheduled on it.
    func fifo(of queue: SimulatedQueue) -> Int? {
        !queue.isConcurrent && queue.index < fifos.count ? queue.index : nil
    }

    /// The keys of `fifo`'s unfired timers due by `now` (and, if `mandatoryOnly`, whose window has closed by then),
    /// earliest first; drops the pairs of timers fired or cancelled since.
    mutating func dueUnfired(of fifo: Int, by now: UInt64, mandatoryOnly: Bool = false) -> [WorkHeap.Key] {
        guard !fifos[fifo].unfired.isEmpty else { return [] }
        let slots = self.slots
        fifos[fifo].unfired.removeAll { slots[$0.slot].id != $0.id || slots[$0.slot].phase != .unfired }
        var due: [WorkHeap.Key] = []
        for (slot, _) in fifos[fifo].unfired
        where slots[slot].earliest <= now && (!mandatoryOnly || slots[slot].latest <= now) {
            due.append(.init(deadline: slots[slot].earliest, sequence: slots[slot].sequence, slot: slot))
        }
        if due.count > 1 { due.sort { $0.precedes($1) } }
        return due
    }

    /// Whether `fifo` has unfired timers (due or not).
    func hasUnfired(_ fifo: Int) -> Bool { !fifos[fifo].unfired.isEmpty }

    /// Whether `fifo` has no block waiting: its unfired timers due may then be the next to run.
    mutating func isEmpty(_ fifo: Int) -> Bool { head(of: fifo) == nil }

    /// The serial queue (index in ``fifos``) of the work in `slot`, or `nil` for concurrent work.
    func fifo(ofSlot slot: Int) -> Int? {
        slots[slot].fifo >= 0 ? Int(slots[slot].fifo) : nil
    }

    /// The indices of the FIFOs that have unfired timers whose window closed by `now`.
    mutating func fifosWithOverdueTimers(by now: UInt64) -> [Int] {
        fifos.indices.filter { hasUnfired($0) && !dueUnfired(of: $0, by: now, mandatoryOnly: true).isEmpty }
    }

    /// Adds `work` to its queue now: at the end of its serial queue's FIFO, or as concurrent work; it may start from
    /// `earliest` and must by `latest` (if nothing ahead of it holds it back).
    mutating func join(_ work: ScheduledWork, sequence: UInt64, earliest: UInt64, latest: UInt64) -> WorkToken {
        let slot = newSlot(work, sequence: sequence, phase: .loose, earliest: earliest, latest: latest)
        enqueue(slot)
        return WorkToken(slot: slot, id: sequence)
    }

    private mutating func newSlot(
        _ work: ScheduledWork, sequence: UInt64, phase: Phase, earliest: UInt64, latest: UInt64
    ) -> Int {
        let fifo: Int32
        if let queue = work.queue, !queue.isConcurrent {
            while fifos.count <= queue.index { fifos.append(FIFO()) }
            fifo = Int32(queue.index)
        } else {
            fifo = -1
        }
        let entry = Slot(
            sequence: sequence, id: sequence, phase: phase, fifo: fifo, earliest: earliest, latest: latest, work: work)
        pendingCount += 1
        changes &+= 1
        if let free = freeSlots.popLast() {
            slots[free] = entry
            return free
        }
        slots.append(entry)
        return slots.count - 1
    }

    /// Puts `slot` (its window set) in its queue: the end of its FIFO, or among the concurrent work.
    private mutating func enqueue(_ slot: Int) {
        let fifo = Int(slots[slot].fifo)
        guard fifo >= 0 else {
            slots[slot].phase = .loose
            runnable.insert(.init(deadline: slots[slot].earliest, sequence: slots[slot].sequence, slot: slot))
            return
        }
        slots[slot].phase = .queued
        fifos[fifo].entries.append((slot, slots[slot].id))
        keyHead(of: fifo)
    }

    /// Makes sure the first live block of `fifo` has its key in ``runnable``.
    private mutating func keyHead(of fifo: Int) {
        guard let head = head(of: fifo) else {
            fifos[fifo].keyed = nil
            return
        }
        let sequence = slots[head].sequence
        if let keyed = fifos[fifo].keyed, keyed.slot == head, keyed.sequence == sequence { return }
        fifos[fifo].keyed = (head, sequence)
        runnable.insert(.init(deadline: slots[head].earliest, sequence: sequence, slot: head))
    }

    /// The first live block of `fifo`, dropping the entries of work that left it (cancelled) on the way.
    private mutating func head(of fifo: Int) -> Int? {
        while fifos[fifo].start < fifos[fifo].entries.count {
            let (slot, id) = fifos[fifo].entries[fifos[fifo].start]
            if slots[slot].id == id && slots[slot].phase == .queued { return slot }
            fifos[fifo].start += 1
        }
        // Empty: reuse the storage.
        fifos[fifo].entries.removeAll(keepingCapacity: true)
        fifos[fifo].start = 0
        return nil
    }

    /// Removes the work `token` names, if it is still pending, and returns it for the caller to release after
    /// unlocking. Its keys go stale; a FIFO entry is dropped when it reaches the front.
    mutating func cancel(_ token: WorkToken) -> ScheduledWork? {
        guard token.slot < slots.count, slots[token.slot].id == token.id, slots[token.slot].phase != .empty else {
            return nil
        }
        let fifo = Int(slots[token.slot].fifo)
        let wasQueued = slots[token.slot].phase == .queued
        if wasQueued || slots[token.slot].phase == .loose { staleRunnable += 1 }
        let work = take(token.slot)
        if wasQueued, fifo >= 0 { keyHead(of: fifo) }
        dropStaleKeys()
        return work
    }

    /// Rebuilds a heap whose stale keys outnumber its live ones.
    private mutating func dropStaleKeys() {
        if firings.count > 64 && firings.count > 2 * pendingCount {
            let slots = self.slots
            firings.removeAll { !Self.isLiveFiring($0, slots) }
        }
        if staleRunnable > 8 && 2 * staleRunnable > runnable.count {
            let slots = self.slots
            runnable.removeAll { !Self.isLiveRunnable($0, slots) }
            staleRunnable = 0
        }
    }

    /// Empties `slot` and returns its work, moved out without a copy.
    private mutating func take(_ slot: Int) -> ScheduledWork? {
        changes &+= 1
        slots[slot].id = .max
        slots[slot].sequence = .max
        slots[slot].phase = .empty
        freeSlots.append(slot)
        pendingCount -= 1
        return slots[slot].work.take()
    }

    /// Empties every slot and returns the work, in the order ``pendingInOrder`` lists it.
    mutating func removeAll() -> [ScheduledWork] {
        let all = pendingInOrder.map(\.work)
        let changes = self.changes &+ 1
        self = WorkTimeline()
        self.changes = changes
        return all
    }

    // MARK: Steps

    /// Whether `key` of ``firings`` still stands for unfired work.
    @inline(__always)
    static func isLiveFiring(_ key: WorkHeap.Key, _ slots: [Slot]) -> Bool {
        slots[key.slot].sequence == key.sequence && slots[key.slot].phase == .unfired
    }

    /// Whether `key` of ``runnable`` still stands for work that may run next: concurrent work, or the first block of
    /// its FIFO. A queued block gets a key only once it is first in its FIFO (``keyHead(of:)``), and stays first until
    /// it leaves, which stales the key: a live key of a queued block is its FIFO's first.
    @inline(__always)
    static func isLiveRunnable(_ key: WorkHeap.Key, _ slots: [Slot]) -> Bool {
        slots[key.slot].sequence == key.sequence
            && (slots[key.slot].phase == .loose || slots[key.slot].phase == .queued)
    }

    /// The earliest live key of ``firings``, dropping stale ones.
    mutating func firstFiring() -> WorkHeap.Key? {
        while let key = firings.first {
            if Self.isLiveFiring(key, slots) { return key }
            firings.removeFirst()
        }
        return nil
    }

    /// The earliest live key of ``runnable``, dropping stale ones.
    mutating func firstRunnable() -> WorkHeap.Key? {
        while let key = runnable.first {
            if Self.isLiveRunnable(key, slots) { return key }
            runnable.removeFirst()
            staleRunnable = max(0, staleRunnable - 1)
        }
        return nil
    }

    /// Fires the unfired work of `key`, now: its block joins its queue, to start from `now`.
    mutating func fire(_ key: WorkHeap.Key, now: UInt64) {
        changes &+= 1
        slots[key.slot].earliest = now
        slots[key.slot].latest = now
        enqueue(key.slot)
    }

    /// Takes the work of `key` (a live key of ``runnable``) out to run: one-shot work leaves its slot; a periodic
    /// timer stays, unfired again until its next firing (from `nextEarliest` to `nextLatest`, with sequence number
    /// `sequence`). The next block of its FIFO, if any, gets its key.
    mutating func handOut(
        _ key: WorkHeap.Key, nextFiring: (sequence: UInt64, earliest: UInt64, latest: UInt64)?
    ) -> ScheduledWork? {
        staleRunnable += 1
        let fifo = Int(slots[key.slot].fifo)
        if fifo >= 0, slots[key.slot].phase == .queued {
            fifos[fifo].start += 1  // the handed-out block was first
            fifos[fifo].keyed = nil
        }
        let work: ScheduledWork?
        if let next = nextFiring {
            changes &+= 1
            slots[key.slot].sequence = next.sequence
            slots[key.slot].phase = .unfired
            slots[key.slot].earliest = next.earliest
            slots[key.slot].latest = next.latest
            slots[key.slot].work?.repetition?.firings += 1
            firings.insert(.init(deadline: next.earliest, sequence: next.sequence, slot: key.slot))
            if fifo >= 0 {
                let slot = key.slot
                fifos[fifo].unfired.removeAll { $0.slot == slot }  // its pair from the firing before, if still there
                fifos[fifo].unfired.append((slot, slots[slot].id))
            }
            work = slots[key.slot].work
        } else {
            work = take(key.slot)
        }
        if fifo >= 0 { keyHead(of: fifo) }
        // The handed-out key is stale now: drop it if it is first (a chosen key may lie deeper, and rebuilding once
        // stale keys outnumber live ones keeps walks of the keys due short).
        if let first = runnable.first, first.slot == key.slot, first.sequence == key.sequence {
            runnable.removeFirst()
            staleRunnable -= 1
        }
        dropStaleKeys()
        return work
    }

    /// The schedule of the periodic timer in `slot`, and its leeway, or `nil` for one-shot work; read without copying
    /// the work.
    func repetition(ofSlot slot: Int) -> (ScheduledWork.Repetition, leeway: UInt64)? {
        guard let repetition = slots[slot].work?.repetition else { return nil }
        return (repetition, slots[slot].work?.leeway ?? 0)
    }

    /// The first block of `queue`'s FIFO when it may start by `now` and was scheduled before `bound`, for an inline
    /// `invokeSync` onto that queue, which runs after the blocks queued there already.
    mutating func readyHead(of queue: SimulatedQueue, now: UInt64, before bound: UInt64) -> WorkHeap.Key? {
        guard let fifo = fifo(of: queue), let head = head(of: fifo),
            slots[head].earliest <= now, slots[head].sequence < bound
        else { return nil }
        return .init(deadline: slots[head].earliest, sequence: slots[head].sequence, slot: head)
    }

    /// Calls `body` with every live key of ``firings`` due by `now` (earliest at or before it), in no particular
    /// order. O(k) for k keys due then, stale ones included; `stack` is reused working space.
    func forEachDueFiring(by now: UInt64, stack: inout [Int], _ body: (WorkHeap.Key) -> Void) {
        firings.forEachKey(dueBy: now, stack: &stack) { key in
            if Self.isLiveFiring(key, slots) { body(key) }
        }
    }

    /// Calls `body` with every live key of ``runnable`` due by `now`, as ``forEachDueFiring(by:stack:_:)`` does.
    func forEachDueRunnable(by now: UInt64, stack: inout [Int], _ body: (WorkHeap.Key) -> Void) {
        runnable.forEachKey(dueBy: now, stack: &stack) { key in
            if Self.isLiveRunnable(key, slots) { body(key) }
        }
    }

    /// The earliest time after `now` at which a timer may fire or work may start (stale keys may make it early, which
    /// costs a step, never a position), or `.max`.
    func nextStart(after now: UInt64, stack: inout [Int]) -> UInt64 {
        min(
            firings.firstDeadline(after: now, stack: &stack) ?? .max,
            runnable.firstDeadline(after: now, stack: &stack) ?? .max)
    }

    /// The work of `key` as a pending item, read field by field (no copy of the work's closures).
    func pendingWork(_ key: WorkHeap.Key) -> PendingWork {
        PendingWork(
            kind: slots[key.slot].work!.kind, queueName: slots[key.slot].work!.queue?.name,
            deadline: DispatchTime(uptimeNanoseconds: key.deadline), sequence: key.sequence,
            origin: slots[key.slot].work!.origin)
    }

    // MARK: Inspection

    /// Every pending piece of work with its key, in the order it would run if nothing were chosen: by earliest time,
    /// then sequence (a FIFO's blocks in FIFO order).
    var pendingInOrder: [(key: WorkHeap.Key, work: ScheduledWork)] {
        var all: [(key: WorkHeap.Key, work: ScheduledWork)] = []
        for (index, slot) in slots.enumerated() where slot.phase != .empty {
            guard let work = slot.work else { continue }
            all.append((.init(deadline: slot.earliest, sequence: slot.sequence, slot: index), work))
        }
        return all.sorted { $0.key.precedes($1.key) }
    }

    /// The queue of a pending task or actor job, if any (for the stall watch): `.some(nil)` for a job of no queue.
    var pendingJobQueue: String?? {
        for slot in slots where slot.phase != .empty {
            if let work = slot.work, case .job = work.kind { return .some(work.queue?.name) }
        }
        return nil
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// How an exploring coordinator takes its steps, as a plain value beside the ``WorkTimeline`` it steps through: which
/// step comes next among those that may (the ``WorkChooser`` picks), when a timer due fires into its queue, and what
/// sleep sets need (the queues declared independent, and whether the work picked last changed anything).
///
/// A timer of a serial queue fires only when the order matters, so that a firing is never tried apart from what it
/// must come before or after: before a block joins its queue (``settle(_:in:now:before:)``), when its queue has nothing
/// waiting (it is then a candidate to run, like the first block of a queue), or when its leeway closes
/// (``fireOverdue(_:by:now:)``).
struct ExploringSteps: Sendable {
    private(set) var chooser: WorkChooser
    /// The serial queues whose work the test declared independent of work on the others
    /// (`TestCoordinator.declareIndependent(_:)`): an exhaustive exploration runs one ordering of such work.
    private var independentQueues: Set<Int> = []
    /// After the work of the last ordering choice was handed out: the timeline's count of changes then, and whether
    /// something else has counted as an effect since (a run's start or end, the test's own `invokeSync`, time moving
    /// on, a periodic timer re-keyed). The next choice is quiet if neither moved: only that work ran, and it
    /// scheduled, cancelled and fired nothing.
    private var sincePick: (changes: UInt64, loud: Bool)?
    /// The work whose start was one instant tried among several (a timer fired in its leeway, a hop started in its
    /// spread), and the work it scheduled with no delay, by token id.
    private var shifted: Set<UInt64> = []
    /// Whether the work handed out last is in ``shifted``.
    private var runningShifted = false
    /// Whether work in ``shifted`` scheduled something to start later (a delay, a hop's latency or spread): its time
    /// follows from the instant tried in the window, where a real firing may come at any instant of it, so other
    /// orderings may come after it than those the run can show. An exhaustive exploration with such a run does not
    /// claim to have covered every ordering.
    private(set) var timedFromAWindow = false
    /// Buffers that choosing reuses from step to step, so that a step allocates nothing.
    private var candidates: [WorkHeap.Key] = []
    private var walk: [Int] = []

    init(_ ordering: WorkOrdering) {
        chooser = WorkChooser(ordering)
    }

    /// Declares work on each of `queues` independent of work on the others (see ``independentQueues``).
    mutating func declareIndependent(_ queues: [SimulatedQueue]) {
        independentQueues.formUnion(queues.map(\.index))
    }

    /// Counts an effect that the timeline does not see (a run's start or end, the test's own `invokeSync`).
    mutating func markLoud() { sincePick?.loud = true }

    /// Notes that the work of `key` is handed out to run: whether it started at an instant tried in a window (see
    /// ``shifted``). `nested` for a block run inside another's inline `invokeSync`, whose caller goes on after it.
    mutating func handingOut(_ key: WorkHeap.Key, in timeline: WorkTimeline, nested: Bool) {
        // Field by field: copying the slot would retain its work's closures.
        let (earliest, latest) = (timeline.slots[key.slot].earliest, timeline.slots[key.slot].latest)
        let isShifted = latest > earliest || (!shifted.isEmpty && shifted.contains(timeline.slots[key.slot].id))
        runningShifted = isShifted || (nested && runningShifted)
    }

    /// Notes that the work of `id` was scheduled, to start (or fire) by `latest`: by the work handed out last, if it
    /// has not returned yet.
    mutating func scheduled(_ id: UInt64, latest: UInt64, now: UInt64) {
        guard runningShifted else { return }
        shifted.insert(id)
        if latest > now { timedFromAWindow = true }
    }

    /// Marks the work of `id` as scheduled by work that started at an instant tried in a window.
    mutating func markShifted(_ id: UInt64) { shifted.insert(id) }

    /// Whether the work running now started at an instant tried in a window; `value`, if given, replaces that (for a
    /// parked fiber's block run on while another piece of work waits for its lock).
    mutating func attribute(shifted value: Bool?) -> Bool {
        defer { if let value { runningShifted = value } }
        return runningShifted
    }

    /// Notes that a run ended: what the test schedules next is none of its work's doing.
    mutating func runEnded() { runningShifted = false }

    /// Fires the timer of `key` into its queue, noting whether it had a window to fire in (see ``shifted``).
    private mutating func fire(_ key: WorkHeap.Key, in timeline: inout WorkTimeline, now: UInt64) {
        if timeline.slots[key.slot].latest > timeline.slots[key.slot].earliest {
            shifted.insert(timeline.slots[key.slot].id)
        }
        timeline.fire(key, now: now)
    }

    /// Records that `work`, picked by an ordering choice, was handed out: what it changes from now on makes the next
    /// choice loud. A periodic timer's re-keying (a new sequence number, a new key) is an effect of its own.
    mutating func picked(_ work: ScheduledWork?, in timeline: WorkTimeline) {
        sincePick = (timeline.changes, work?.repetition != nil)
    }

    /// The next step of the run that may start by `limit`: the key of the work to hand out (a timer picked to run has
    /// fired, and its key is its handler's), and whether a choice picked it; `nil` when nothing more runs by `limit`.
    /// Moves `now` on as time moves.
    ///
    /// The candidates come by key (time, then sequence): the first block due of each serial queue, the concurrent
    /// work due, and each timer due of a queue that has nothing waiting or of the concurrent queue; the first is the
    /// fixed order's step. Something due only within its window (a timer's leeway, a hop's spread) may also wait:
    /// time moving on is then a candidate too, to the next instant at which other work is due or a window closes, so
    /// that it is tried at every position among the other work due in its window.
    ///
    /// - Complexity: O(c log c) for the c candidates, plus walking the heaps' keys due (stale ones included).
    mutating func next(
        in timeline: inout WorkTimeline, now: inout UInt64, until limit: UInt64
    ) -> (key: WorkHeap.Key, chosen: Bool)? {
        while true {
            let firing = timeline.firstFiring()
            let runnable = timeline.firstRunnable()
            guard firing != nil || runnable != nil else { return nil }
            let due: UInt64 = Swift.min(firing?.deadline ?? UInt64.max, runnable?.deadline ?? UInt64.max)
            if due > now {
                guard due <= limit else { return nil }
                fireOverdue(&timeline, by: now, now: now)
                now = due
            }
            gatherCandidates(in: &timeline, now: now)
            // The window closing first among the candidates: if it is now, something must go now.
            var closing = UInt64.max
            for key in candidates { closing = Swift.min(closing, timeline.slots[key.slot].latest) }
            let mustGoNow = closing <= now
            let count = candidates.count + (mustGoNow ? 0 : 1)
            let picked = count > 1 ? pick(among: count, timeline, now: now) : 0
            if candidates.isEmpty || picked == candidates.count {
                // Time moves on (no work may start now, or the choice was to wait) to the next instant something
                // else happens: work due later, or a window closing. Past `limit`, the run ends here, with what waits
                // still to come.
                sincePick?.loud = true
                let moveTo = Swift.min(timeline.nextStart(after: now, stack: &walk), closing)
                guard moveTo <= limit else { return nil }
                fireOverdue(&timeline, by: now, now: now)
                now = moveTo
                continue
            }
            var key = candidates[picked]
            if timeline.slots[key.slot].phase == .unfired {
                // A timer fires and runs at once: its queue has nothing waiting.
                fire(key, in: &timeline, now: now)
                key = .init(deadline: now, sequence: key.sequence, slot: key.slot)
            }
            return (key, count > 1)
        }
    }

    /// Fills ``candidates``: the live keys due by `now` of work that may run next, in key order.
    private mutating func gatherCandidates(in timeline: inout WorkTimeline, now: UInt64) {
        var candidates = self.candidates
        self.candidates = []  // the buffer's one reference: filling it copies nothing
        candidates.removeAll(keepingCapacity: true)
        timeline.forEachDueRunnable(by: now, stack: &walk) { candidates.append($0) }
        let ready = candidates.count
        timeline.forEachDueFiring(by: now, stack: &walk) { candidates.append($0) }
        // A timer of a serial queue goes next only when its FIFO is empty; behind blocks, it fires later.
        var index = ready
        while index < candidates.count {
            if let fifo = timeline.fifo(ofSlot: candidates[index].slot), !timeline.isEmpty(fifo) {
                candidates.swapAt(index, candidates.count - 1)
                candidates.removeLast()
            } else {
                index += 1
            }
        }
        if candidates.count > 1 { candidates.sort { $0.precedes($1) } }
        self.candidates = candidates
    }

    /// The chooser's pick among `count` steps: ``candidates``, then, if `count` says so, time moving on.
    private mutating func pick(among count: Int, _ timeline: WorkTimeline, now: UInt64) -> Int {
        let (candidates, independentQueues, slots) = (self.candidates, self.independentQueues, timeline.slots)
        let quiet = sincePick.map { !$0.loud && $0.changes == timeline.changes } ?? false
        func key(_ index: Int) -> WorkHeap.Key? { index < candidates.count ? candidates[index] : nil }
        return chooser.choose(
            among: count,
            chain: { index in
                guard let key = key(index) else { return .time }
                let fifo = slots[key.slot].fifo
                return fifo >= 0 ? .queue(Int(fifo)) : .work(slots[key.slot].id)
            },
            describe: { index in
                guard let key = key(index) else { return .timeMovedOn(now) }
                let pending = timeline.pendingWork(key)
                return slots[key.slot].phase == .unfired ? .fired(pending) : .ran(pending)
            },
            candidate: { index in
                guard let key = key(index) else { return WorkChooser.Candidate(identity: .max, independentQueue: nil) }
                let fifo = Int(slots[key.slot].fifo)
                return WorkChooser.Candidate(
                    identity: key.sequence, independentQueue: fifo >= 0 && independentQueues.contains(fifo) ? fifo : nil
                )
            },
            quiet: quiet)
    }

    /// Before a block (`joining`) joins the serial queue `fifo`: the ordering chooses which of the queue's timers due
    /// by now fired before it, one at a time (the fixed order's choice: all of them, earliest first). The rest fire
    /// after it, later.
    mutating func settle(
        _ fifo: Int, in timeline: inout WorkTimeline, now: UInt64, before joining: @autoclosure () -> PendingWork
    ) {
        guard timeline.hasUnfired(fifo) else { return }
        while true {
            let due = timeline.dueUnfired(of: fifo, by: now)
            guard !due.isEmpty else { return }
            let chosen = chooseFiring(among: due, timeline, orElse: .queuedFirst(joining()))
            guard chosen < due.count else { return }
            fire(due[chosen], in: &timeline, now: now)
        }
    }

    /// Fires each timer of a serial queue whose window has closed by `time`: it must have fired by then, behind the
    /// blocks in its queue. Where other timers of the queue are due too, the ordering chooses which fires next (one
    /// still in its window may fire before those that must).
    mutating func fireOverdue(_ timeline: inout WorkTimeline, by time: UInt64, now: UInt64) {
        for fifo in timeline.fifosWithOverdueTimers(by: time) {
            while !timeline.dueUnfired(of: fifo, by: time, mandatoryOnly: true).isEmpty {
                let due = timeline.dueUnfired(of: fifo, by: time)
                let chosen = due.count == 1 ? 0 : chooseFiring(among: due, timeline, orElse: nil)
                fire(due[chosen], in: &timeline, now: now)
            }
        }
    }

    /// The chooser's pick among firing one of `due` (in key order) and, if `orElse` says what it is, not firing any.
    /// These choices take no part in sleep sets.
    private mutating func chooseFiring(
        among due: [WorkHeap.Key], _ timeline: WorkTimeline, orElse: WorkChooser.Step?
    ) -> Int {
        let slots = timeline.slots
        return chooser.choose(
            among: due.count + (orElse == nil ? 0 : 1),
            chain: { index in index < due.count ? .work(slots[due[index].slot].id) : .time },
            describe: { index in index < due.count ? .fired(timeline.pendingWork(due[index])) : orElse! },
            candidate: { _ in WorkChooser.Candidate(identity: .max, independentQueue: nil) }, quiet: false)
    }
}

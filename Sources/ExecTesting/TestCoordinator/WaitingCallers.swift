// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// The callers waiting in an inline `invokeSync` while the work they wait for runs isolated in its queue, and which
/// serial queues each holds meanwhile: entering one of those from that work would deadlock for real. A plain value
/// inside ``CoordinatorState``, innermost wait last.
struct WaitingCallers: Sendable {
    /// A caller inside `queue` waits for work on `waitingFor`: `work`, when known.
    private var holds: [(queue: SimulatedQueue, waitingFor: SimulatedQueue, work: PendingWork?)] = []

    /// Records that the serial queues among `standing` (the simulated queues a caller stands in) stay held while
    /// `work` runs isolated in `queue`, as it would on the queue's own thread. Returns what ``restore(count:)`` needs.
    mutating func isolate(in queue: SimulatedQueue, leaving standing: [SimulatedQueue], work: PendingWork?) -> Int {
        defer {
            // Only serial queues: a concurrent one lets the isolated work in beside the waiting caller.
            holds.append(contentsOf: standing.filter { $0 !== queue && !$0.isConcurrent }.map { ($0, queue, work) })
        }
        return holds.count
    }

    /// Puts back what ``isolate(in:leaving:work:)`` changed.
    mutating func restore(count: Int) {
        holds.removeLast(holds.count - count)
    }

    /// The work running for the innermost waiting caller, if any.
    var innermostWork: PendingWork? { holds.last?.work }

    /// If a waiting caller holds `queue`, who waits for whom once work enters it: from that caller, each wait in
    /// turn, back to `queue`. `nil` when no waiting caller holds `queue`.
    func cycle(closingOn queue: SimulatedQueue) -> String? {
        guard let start = holds.lastIndex(where: { $0.queue === queue }) else { return nil }
        var parts = [
            "a caller inside \"\(queue.name)\" waits in invokeSync for work on \"\(holds[start].waitingFor.name)\""
        ]
        var waitedOn = holds[start].waitingFor
        for hold in holds[(start + 1)...] where hold.queue === waitedOn {
            parts.append("that work waits in invokeSync for work on \"\(hold.waitingFor.name)\"")
            waitedOn = hold.waitingFor
        }
        parts.append("that work calls invokeSync onto \"\(queue.name)\"")
        let each = parts.count == 2 ? "each would wait for the other" : "each would wait for the next"
        return parts.dropLast().joined(separator: ", ") + ", and " + parts.last! + ": for real, " + each
    }
}

/// What waited for what in a deadlock that an exploration's run ran into, and the work that made the last wait.
struct Deadlock: Sendable {
    /// Who waits for whom, in words.
    let waits: String
    /// The piece of work running when the cycle closed (the one that waited last), if known.
    let work: PendingWork?
}

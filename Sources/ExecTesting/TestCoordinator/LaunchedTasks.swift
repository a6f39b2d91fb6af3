// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

@_spi(ExecTesting) import ExecMutex

/// The tasks a coordinator started with `task(priority:_:)` that have not finished, each with where it was started
/// (when the coordinator records call sites), and the ``TestCoordinator/withTasksCaptured(hangGrace:filePath:line:_:)`` calls some of whose
/// tasks have not: what an exploration, and `assertNoPendingWork`, report as a hang when nothing is pending and some
/// of them are still waiting.
final class LaunchedTasks: Sendable {
    private let table = LockedBox<(next: UInt64, unfinished: [UInt64: RecordedCallSite?])>((0, [:]), observed: false)
    /// Each `withTasksCaptured` call's ticket, held weakly: alive while a task started inside it has not finished.
    private let captures = LockedBox<[CaptureRecord]>([], observed: false)

    private struct CaptureRecord: @unchecked Sendable {  // read and written under `captures`' lock only
        weak var ticket: CaptureTicket?
        let callSite: PendingWork.CallSite
        /// How long its tasks may stay out of the coordinator, in real time, before they count as hung.
        let grace: Duration
        /// Whether the call is still running: its own binding holds the ticket then, whatever its tasks do.
        var isRunning = true
    }

    /// Records a task about to start; returns what ``finished(_:)`` takes.
    func started(at origin: RecordedCallSite?) -> UInt64 {
        table.withLock { table in
            defer { table.next += 1 }
            table.unfinished[table.next] = origin
            return table.next
        }
    }

    /// Records that the task `id` names has returned or thrown.
    func finished(_ id: UInt64) {
        _ = table.withLock { $0.unfinished.removeValue(forKey: id) }
    }

    /// Records a `withTasksCaptured` call made at `callSite`, whose tasks carry `ticket` until they finish and may stay
    /// out of the coordinator for `grace` before they count as hung.
    func captured(_ ticket: CaptureTicket, at callSite: PendingWork.CallSite, grace: Duration) {
        captures.withLock { $0.append(CaptureRecord(ticket: ticket, callSite: callSite, grace: grace)) }
    }

    /// Records that the `withTasksCaptured` call of `ticket` has returned: from now on, only its tasks hold `ticket`.
    func captureReturned(_ ticket: CaptureTicket) {
        captures.withLock { records in
            for index in records.indices where records[index].ticket === ticket { records[index].isRunning = false }
        }
    }

    /// Each `withTasksCaptured` call that has returned, and some of whose tasks have not finished, in call order:
    /// where it was made and its grace.
    var unfinishedCaptures: [(callSite: PendingWork.CallSite, grace: Duration)] {
        captures.withLock { records in
            records.removeAll { $0.ticket == nil }
            return records.filter { !$0.isRunning }.map { ($0.callSite, $0.grace) }
        }
    }

    /// Where each unfinished task was started, in start order; `nil` entries for tasks whose start was not recorded.
    var unfinished: [RecordedCallSite?] {
        table.withLock { table in
            table.unfinished.isEmpty ? [] : table.unfinished.sorted { $0.key < $1.key }.map(\.value)
        }
    }
}

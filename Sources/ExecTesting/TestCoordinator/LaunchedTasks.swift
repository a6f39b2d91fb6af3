// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecMutex

/// The tasks a coordinator started with `task(priority:_:)` that have not finished, each with where it was started
/// (when the coordinator records call sites): what an exploration reports as a hang when a run ends with nothing
/// pending and some of them still waiting.
final class LaunchedTasks: Sendable {
    private let table = LockedBox<(next: UInt64, unfinished: [UInt64: RecordedCallSite?])>((0, [:]))

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

    /// Where each unfinished task was started, in start order; `nil` entries for tasks whose start was not recorded.
    var unfinished: [RecordedCallSite?] {
        table.withLock { table in
            table.unfinished.isEmpty ? [] : table.unfinished.sorted { $0.key < $1.key }.map(\.value)
        }
    }
}

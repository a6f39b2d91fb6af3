// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Synchronization

/// The bookkeeping behind ``Exec/mainOrdered``: how many of its blocks are queued on the main queue and not started.
///
/// A block may run immediately only when the caller is on the main queue *and* none is pending, so it can never
/// overtake a `.mainOrdered` block submitted before it.
enum MainOrderedQueue {
    private static let pending = Atomic<Int>(0)

    /// Whether a block invoked now from the current caller would run immediately.
    static var runsImmediately: Bool {
        pending.load(ordering: .acquiring) == 0 && Exec.isInsideMainQueue
    }

    static func invoke(_ execute: @escaping @Sendable () -> Void) {
        if runsImmediately {
            execute()
        } else {
            enqueue(execute)
        }
    }

    /// Counts a task started on ``Exec/mainOrdered`` as pending until its first job calls ``turnTaken()``: that job is
    /// queued on the main queue (by the runtime's main executor), and no block invoked meanwhile may overtake it.
    static func holdTurn() {
        pending.wrappingAdd(1, ordering: .releasing)
    }

    /// The first job of a task that ``holdTurn()`` counted has started.
    static func turnTaken() {
        pending.wrappingSubtract(1, ordering: .releasing)
    }

    static func enqueue(_ execute: @escaping @Sendable () -> Void) {
        pending.wrappingAdd(1, ordering: .releasing)
        SerialQueueEntry.main.async {
            // Decrement first, so a block this one invokes runs inline when nothing else is waiting.
            pending.wrappingSubtract(1, ordering: .releasing)
            execute()
        }
    }
}

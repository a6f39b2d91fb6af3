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

    /// Counts work queued on the main queue for ``Exec/mainOrdered`` as pending until it starts and calls
    /// ``turnTaken()``: its own blocks (``enqueue(_:)``), and the first job of a task started there, which the runtime's
    /// main executor queues. No block invoked meanwhile may overtake it.
    static func holdTurn() {
        pending.wrappingAdd(1, ordering: .releasing)
    }

    /// Work that ``holdTurn()`` counted has started.
    static func turnTaken() {
        pending.wrappingSubtract(1, ordering: .releasing)
    }

    static func enqueue(_ execute: @escaping @Sendable () -> Void) {
        holdTurn()
        SerialQueueEntry.main.async {
            // First, so a block this one invokes runs inline when nothing else is waiting.
            turnTaken()
            execute()
        }
    }
}

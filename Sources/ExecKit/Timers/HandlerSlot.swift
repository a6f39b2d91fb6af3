// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The states of a `HandlerSlot` (a generic class cannot have static stored properties).
private let slotIdle: UInt8 = 0
private let slotBusy: UInt8 = 1
private let slotCleared: UInt8 = 2

/// Holds a handler until it can never run again, then lets it go: on ``clear()`` (cancellation), or when a one-shot
/// firing ``take()``s it.
///
/// Why not a `LockedBox`: every timer makes one, and a `LockedBox` costs three allocations (box, mutex object,
/// `pthread_mutex_t`). The slot is one allocation: the closure sits beside a three-state flag, and only the thread that
/// moved the flag to `busy` touches the closure. The busy window is a closure copy (a retain) or a release, so waiters
/// spin briefly and yield.
final class HandlerSlot<Handler: Sendable>: @unchecked Sendable {
    // Unchecked: `handler` is read and written only by the thread that moved `state` from `idle` to `busy` (with
    // acquiring-and-releasing ordering), and never again once `state` is `cleared`.
    private nonisolated(unsafe) var handler: Handler?
    private let state = Atomic<UInt8>(slotIdle)

    init(_ handler: Handler) { self.handler = handler }

    /// Whether ``clear()`` or ``take()`` has emptied the slot for good.
    var isCleared: Bool { state.load(ordering: .acquiring) == slotCleared }

    /// A copy of the handler, or `nil` once the slot was cleared. The slot keeps it: for handlers that run again.
    func load() -> Handler? {
        guard acquire() else { return nil }
        let copy = handler
        state.store(slotIdle, ordering: .releasing)
        return copy
    }

    /// The handler, leaving the slot cleared for good; `nil` when it was already cleared. For one-shot handlers.
    func take() -> Handler? {
        guard acquire() else { return nil }
        let taken = handler
        handler = nil
        state.store(slotCleared, ordering: .releasing)
        return taken
    }

    /// Empties the slot for good and releases the handler (on this thread, after the slot no longer refers to it).
    ///
    /// - Returns: `true` when this call cleared the slot, `false` when it was already cleared.
    @discardableResult
    func clear() -> Bool {
        take() != nil
    }

    /// Moves the state from `idle` to `busy`, waiting out another thread's short busy window; `false` once cleared.
    private func acquire() -> Bool {
        while true {
            let (exchanged, original) = state.compareExchange(
                expected: slotIdle, desired: slotBusy, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            if original == slotCleared { return false }
            sched_yield()
        }
    }
}

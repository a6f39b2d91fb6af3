// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import Synchronization

/// A one-way signal between two threads that take turns, as a fiber and the thread that resumes it do: one signals,
/// the other waits. The waiter spins a moment before it blocks, since the other side usually hands the turn back within
/// a few microseconds, and a semaphore's block and wake cost far more than that on a busy machine.
///
/// One signaller and one waiter at a time; a signal before the wait is kept for it (at most one).
final class Handoff: Sendable {
    /// 0: nothing; 1: signalled, not yet taken; 2: the waiter is blocked on the semaphore.
    private let state = Atomic(0)
    private let semaphore = DispatchSemaphore(value: 0)

    /// How many times a waiter looks before it blocks.
    private static let spins = 2_000

    func signal() {
        if state.exchange(1, ordering: .acquiringAndReleasing) == 2 { semaphore.signal() }
    }

    /// Waits for the signal; after `limit` seconds without it (when given), stops the program with `message`: a hang
    /// would say nothing.
    func wait(stoppingAfter limit: Int? = nil, _ message: @autoclosure () -> String = "") {
        for _ in 0..<Self.spins {
            if state.compareExchange(expected: 1, desired: 0, ordering: .acquiringAndReleasing).exchanged { return }
        }
        if state.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged {
            if let limit {
                if semaphore.wait(timeout: .now() + .seconds(limit)) == .timedOut { fatalError(message()) }
            } else {
                semaphore.wait()
            }
        }
        _ = state.exchange(0, ordering: .acquiringAndReleasing)  // the signal is taken (and what came before it)
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Synchronization

/// A block handed to a context that may let go of it without running it, with what to do instead: a
/// `TestCoordinator` drops its pending work in `discardPendingWork()` and when it goes away, and a context of the
/// user's may drop blocks too. A task's job, a `perform`'s block or a serialized context's drain must not vanish that
/// way (a task would never finish, a caller never resume, a context never drain again), so `whenDropped` runs
/// instead, once, on the thread that releases the block.
///
/// - Cost: this object, besides the closure that carries it through the context.
package final class DropAwareBlock: Sendable {
    private let body: @Sendable () -> Void
    private let whenDropped: @Sendable () -> Void
    private let ran = Atomic(false)

    package init(_ body: @escaping @Sendable () -> Void, whenDropped: @escaping @Sendable () -> Void) {
        self.body = body
        self.whenDropped = whenDropped
    }

    /// Runs the block; only the first call does anything.
    package func run() {
        if !ran.exchange(true, ordering: .acquiringAndReleasing) { body() }
    }

    deinit {
        if !ran.load(ordering: .acquiring) { whenDropped() }
    }
}

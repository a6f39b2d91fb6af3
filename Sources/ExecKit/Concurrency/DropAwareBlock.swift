// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims
import Synchronization

// The states of a `DropAwareBlock`.
private let blockPending: UInt8 = 0
/// Called inside its own hand-over (``DropAwareBlock/submit(through:otherwise:)``): to run once that has returned.
private let blockDeferred: UInt8 = 1
private let blockRan: UInt8 = 2

/// A block (an executor's job, a `perform`'s block, a serialized context's drain) on its way through a context that
/// may not run it as asked:
///
/// - A context may let go of it without running it: a `TestCoordinator` drops its pending work in
///   `discardPendingWork()` and when it goes away, and a context of the user's may drop blocks too. A task's job, a
///   caller's `perform` or a serialized context's drain must not vanish that way (a task would never finish, a caller
///   never resume, a context never drain again), so `whenDropped` runs instead, once, on the thread that releases it.
/// - A context's asynchronous path may run it at once, before returning: an immediate context, or a mutex around one.
///   A job must not run inside the runtime's `enqueue`, so ``submit(through:otherwise:)`` notices and hands it on.
///
/// - Cost: this object, besides the closure that carries it through the context; a thread-local store and a load per
///   hand-over.
package final class DropAwareBlock: Sendable {
    private let body: @Sendable () -> Void
    private let whenDropped: @Sendable () -> Void
    private let state = Atomic(blockPending)

    package init(_ body: @escaping @Sendable () -> Void, whenDropped: @escaping @Sendable () -> Void) {
        self.body = body
        self.whenDropped = whenDropped
    }

    /// Runs the block; only the first call does anything.
    package func run() {
        if state.exchange(blockRan, ordering: .acquiringAndReleasing) != blockRan { body() }
    }

    /// Hands the block to `submit` (a context's asynchronous path). If that runs it before returning, on this thread,
    /// it does not run then: `otherwise` gets it once `submit` has returned, to run it from elsewhere.
    package func submit(
        through submit: (_ run: @escaping @Sendable () -> Void) -> Void,
        otherwise: (DropAwareBlock) -> Void
    ) {
        let outer = execkit_submitting_block()
        let me = Unmanaged.passUnretained(self).toOpaque()
        execkit_set_submitting_block(me)
        submit { self.runUnlessInsideItsHandOver() }
        execkit_set_submitting_block(outer)
        if state.load(ordering: .acquiring) == blockDeferred { otherwise(self) }
    }

    private func runUnlessInsideItsHandOver() {
        if execkit_submitting_block() == Unmanaged.passUnretained(self).toOpaque() {
            state.store(blockDeferred, ordering: .releasing)
            return
        }
        run()
    }

    deinit {
        if state.load(ordering: .acquiring) != blockRan { whenDropped() }
    }
}

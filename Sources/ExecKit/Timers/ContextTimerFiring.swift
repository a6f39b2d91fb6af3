// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Synchronization

/// Carries a timer's firings into a context that is not a Dispatch queue (a custom ``ExecutionContext``), with at
/// most one firing queued there at a time.
///
/// Why: every Dispatch firing used to `invoke` its own block, so a context that was blocked for a while received
/// every missed tick and ran them back to back. Here a tick that arrives while an earlier one is still queued or
/// running in the context is dropped, which is what a `DispatchSource` timer does with missed periods; on a concurrent
/// context this is also what keeps one periodic handler from running twice at once.
///
/// The handler is checked, inside the context, right before it runs: once `cancel()` has emptied the slot, a firing
/// already on its way does nothing. A periodic firing that the context drops unrun clears the queued flag (its
/// ``DropAwareBlock`` notices), so the next tick is delivered.
///
/// Whoever fires it (the trigger: a Dispatch timer, or the timer of the context a derived context wraps) holds it. Once
/// the trigger lets go of it (cancelled, fired once, or dropped unrun by its context: a `TestCoordinator` discarding its
/// work), nothing can fire it again, so it releases the handler then, even while the timer's `Lifetime` is still held.
final class ContextTimerFiring: Sendable {
    private let deliver: @Sendable (_ firing: @escaping @Sendable () -> Void) -> Void
    private let handler: HandlerSlot<@Sendable () -> Void>
    private let repeats: Bool
    /// A firing has been handed to the context and has not finished yet (for a one-shot: has not started yet).
    private let isQueued = Atomic(false)

    /// A firing that `invoke`s each tick into `context`.
    convenience init(context: any ExecutionContext, handler: HandlerSlot<@Sendable () -> Void>, repeats: Bool) {
        self.init(delivering: { context.invoke($0) }, handler: handler, repeats: repeats)
    }

    /// A firing that hands each tick to `deliver`, which runs it in the context (a derived context's own way in).
    init(
        delivering deliver: @escaping @Sendable (_ firing: @escaping @Sendable () -> Void) -> Void,
        handler: HandlerSlot<@Sendable () -> Void>, repeats: Bool
    ) {
        self.deliver = deliver
        self.handler = handler
        self.repeats = repeats
    }

    deinit { handler.clear() }

    /// Called by the trigger.
    func fire() {
        if handler.isCleared { return }
        guard !isQueued.exchange(true, ordering: .acquiringAndReleasing) else { return }  // one is still waiting
        guard repeats else { return deliver { self.runInContext() } }
        // A context may let go of the block unrun; the flag must not stay set then, or no later tick would be
        // delivered. (A one-shot has no later tick, and skips the block's allocation.)
        let block = DropAwareBlock({ self.runInContext() }, whenDropped: { self.deliveryDropped() })
        deliver { block.run() }
    }

    /// The context released a periodic firing without running it: the next tick may be delivered.
    private func deliveryDropped() {
        isQueued.store(false, ordering: .releasing)
    }

    private func runInContext() {
        if repeats {
            // Cleared only once the handler has returned: a tick that arrives while it runs is a missed period and is
            // skipped. Clearing it before would let that tick start a second run beside this one on a concurrent
            // context, and a periodic handler never runs twice at once.
            handler.load()?()
            isQueued.store(false, ordering: .releasing)
        } else {
            isQueued.store(false, ordering: .releasing)
            handler.take()?()
        }
    }
}

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
/// already on its way does nothing.
final class ContextTimerFiring: Sendable {
    private let context: any ExecutionContext
    private let handler: HandlerSlot<@Sendable () -> Void>
    private let repeats: Bool
    /// A firing has been handed to the context and has not finished yet (for a one-shot: has not started yet).
    private let isQueued = Atomic(false)

    init(context: any ExecutionContext, handler: HandlerSlot<@Sendable () -> Void>, repeats: Bool) {
        self.context = context
        self.handler = handler
        self.repeats = repeats
    }

    /// Called by the Dispatch timer on a global queue.
    func fire() {
        if handler.isCleared { return }
        guard !isQueued.exchange(true, ordering: .acquiringAndReleasing) else { return }  // one is still waiting
        context.invoke { self.runInContext() }
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

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// The timers of a context that ExecKit derives from another by serializing it (`serialized()` of a custom context, a
/// `MutexContext`): the wrapped context's own timer decides when, so a derived context keeps its clock (a `TestCoordinator`'s
/// virtual time included), and each firing is invoked into the derived context, one at a time (``ContextTimerFiring``).
///
/// - Cancellation: the lifetime empties the handler's slot before it cancels the wrapped timer, so a firing already on
///   its way into the derived context does nothing, and on a serial derived context no handler starts after `cancel()`
///   returned inside it.
/// - Release: the handler is released when the lifetime ends, and also when the wrapped context's timer lets go of its
///   firing without a way to fire again (a `TestCoordinator` discarding its work drops it).
/// - Deadlines: `deliver` (``SerializedContext``'s) queues a firing as `invoke` would, but the hop it may need into the
///   wrapped context takes no virtual time on a `TestCoordinator` with a hop latency: a firing keeps its deadline.
/// - Cost: the wrapped context's timer, plus a handler slot and the firing object.
func forwardedTimer(
    into context: some ExecutionContext,
    delivering deliver: (@Sendable (_ firing: @escaping @Sendable () -> Void) -> Void)? = nil,
    from wrapped: any ExecutionContext,
    interval: Duration,
    leeway: Duration,
    repeats: Bool,
    handler: @escaping @Sendable () -> Void
) -> any Lifetime {
    let slot = HandlerSlot(handler)
    let firing = ContextTimerFiring(delivering: deliver ?? { context.invoke($0) }, handler: slot, repeats: repeats)
    let trigger =
        repeats
        ? wrapped.periodicTimer(interval: interval, leeway: leeway) { firing.fire() }
        : wrapped.singleTimer(interval: interval, leeway: leeway) { firing.fire() }
    return ForwardedTimerLifetime(trigger: trigger, handler: slot)
}

/// The lifetime of a ``forwardedTimer(into:from:interval:leeway:repeats:handler:)``: ending it releases the handler
/// at once and cancels the wrapped context's timer.
private final class ForwardedTimerLifetime: Lifetime {
    private let trigger: any Lifetime
    private let handler: HandlerSlot<@Sendable () -> Void>

    init(trigger: any Lifetime, handler: HandlerSlot<@Sendable () -> Void>) {
        self.trigger = trigger
        self.handler = handler
    }

    deinit { cancel() }

    func cancel() {
        handler.clear()
        trigger.cancel()
    }
}

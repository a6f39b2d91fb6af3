// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// Work that runs later or is joined later, on any context: a delayed block nobody has to keep, and blocks that enter
// and leave a `DispatchGroup`.

extension ExecutionContext {
    /// Runs `execute` once in this context after `delay`, like `DispatchQueue.asyncAfter`: there is no handle to keep
    /// and no way to cancel. Use ``singleTimer(interval:leeway:handler:)`` when the work may have to be called off.
    ///
    /// This default implementation starts a one-shot timer with no leeway and keeps the timer's lifetime alive until it
    /// has fired, so it works for every context whose timers work, a `TestCoordinator`'s virtual-time contexts
    /// included (there, the block runs inside the `advance` that reaches the deadline).
    /// <!-- G-custom-invoke-after-self-keeping -->
    ///
    /// - Timing: never before `delay` has passed (by this context's clock); a zero or negative delay runs as soon as
    ///   possible. Never inline: the block has not started when this call returns. <!-- G-timer-invoke-after -->
    /// - Release: once the block has run, the timer and `execute` (with whatever it captures) are released.
    ///   <!-- G-timer-invoke-after-release -->
    /// - Cost: one timer, as ``singleTimer(interval:leeway:handler:)``, plus two small allocations: the object that
    ///   keeps it alive, and the closure around `execute` that holds it. <!-- G-custom-invoke-after-cost -->
    public func invoke(after delay: Duration, _ execute: @escaping @Sendable () -> Void) {
        let keeper = TimerKeeper()
        let timer = singleTimer(interval: delay, leeway: .zero) {
            execute()
            // The closure, and with it `keeper`, is released once it has run: `keeper` then lets go of the timer.
            withExtendedLifetime(keeper) {}
        }
        keeper.keep(timer)
    }

    /// Runs `execute` asynchronously in this context as part of `group`: `group.enter()` before it is scheduled,
    /// `group.leave()` once it has run, so `group.wait(timeout:)` and `group.notify(queue:execute:)` see it.
    ///
    /// Like ``invokeAsync(_:)``, the block never runs before this call returns.
    /// <!-- G-invokeasync-never-inline -->
    ///
    /// - Ordering: the group is entered before this call returns, so a `wait` or `notify` issued afterwards includes
    ///   the block. <!-- G-custom-group-invoke -->
    /// - Cost: ``invokeAsync(_:)`` plus one closure that leaves the group. <!-- G-group-invokeasync-cost -->
    public func invokeAsync(group: DispatchGroup, _ execute: @escaping @Sendable () -> Void) {
        group.enter()
        invokeAsync {
            execute()
            group.leave()
        }
    }

    /// Runs `execute` the way ``invoke(_:)`` does (immediately or asynchronously, as ``type`` says) as part of
    /// `group`: `group.enter()` before, `group.leave()` once the block has run.
    ///
    /// On an immediate context the group is entered and left again before this call returns.
    /// <!-- G-custom-group-invoke -->
    ///
    /// - Ordering: the group is entered before the block is scheduled, so a `wait` or `notify` issued after this call
    ///   includes the block. <!-- G-custom-group-invoke -->
    /// - Cost: ``invoke(_:)`` plus one closure that leaves the group. <!-- G-group-invoke-cost -->
    public func invoke(group: DispatchGroup, _ execute: @escaping @Sendable () -> Void) {
        group.enter()
        invoke {
            execute()
            group.leave()
        }
    }
}

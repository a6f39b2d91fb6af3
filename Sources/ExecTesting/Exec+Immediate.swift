// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

public import ExecKit

extension Exec {
    /// A context that runs everything at once, on the caller's thread, before the call returns: blocks, delayed
    /// blocks and timers alike, like combine-schedulers' `ImmediateScheduler`. <!-- G-virtual-immediate-context --> For
    /// tests that only care that work happens, not when or where.
    ///
    /// ```swift
    /// let clock = ImmediateClock()
    /// let session = Session(context: .immediate(clock: clock), timeout: .seconds(1_800))
    /// #expect(!session.isOpen)              // the 30-minute timer fired inside init
    /// #expect(clock.elapsed == .seconds(1_800))
    /// ```
    ///
    /// - Not like a real context: `invokeAsync` also runs the block before returning, where every other context
    ///   promises it never does. Code that uses `invokeAsync` to avoid re-entering a lock it holds behaves
    ///   differently under it: test such code with a `TestCoordinator`. <!-- G-virtual-immediate-context -->
    /// - Time: `invoke(after:)` and timers move `clock` forward by their delay, then run; `timestamp()` reads it.
    ///   <!-- G-virtual-immediate-context -->
    /// - Repeating work: a periodic timer fires once, at once (firing forever would never return); its handle's
    ///   `cancel()` does nothing. <!-- G-virtual-immediate-context -->
    /// - Type: `ExecutionType.immediate`, and `isCurrent` is `true`, like `Exec.direct`.
    ///   <!-- G-virtual-immediate-context -->
    /// - Tasks: jobs of its `taskExecutor` and `task { }` run on the global concurrent executor, since a job cannot
    ///   run inside its own enqueue. <!-- G-virtual-immediate-tasks -->
    /// - Thread-safety: may be used from any thread. Cost: one allocation. <!-- G-thread-safety-any-thread -->
    public static func immediate(clock: ImmediateClock = ImmediateClock()) -> Exec {
        .custom(ImmediateContext(clock: clock))
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

extension Exec {
    /// Adapts a main-actor-isolated callback to the `@Sendable` callback that ExecKit APIs (and callback APIs built on
    /// `Exec`) take, so `@MainActor` code can write its state in a completion, an observer or a timer:
    ///
    /// ```swift
    /// @MainActor final class ViewModel {
    ///     var title = ""
    ///     func refresh() {
    ///         load(id, context: .main, completion: Exec.onMainActor { result in self.title = result.title })
    ///     }
    /// }
    /// ```
    ///
    /// In `@MainActor` code the closure literal is inferred `@MainActor`, so it may touch main-actor state without
    /// `MainActor.assumeIsolated`.
    ///
    /// - Where it runs: on the main actor, always. Called on the main queue (as a `.main` delivery is), it runs
    ///   `handler` at once, inline; called anywhere else (a context other than `.main` was passed by mistake), it
    ///   queues `handler` on the main queue, in FIFO order with other main-queue work. <!-- G-main-onmainactor -->
    /// - Cost: on the main queue, a current-queue check (a thread-local read), the Swift runtime's check of the
    ///   current executor that `MainActor.assumeIsolated` makes, and a call: about 1,100 instructions, against 50 for
    ///   `.main.invoke(_:with:)`, which needs no isolation check. <!-- G-main-onmainactor-cost -->
    public static func onMainActor<Value: Sendable>(_ handler: @escaping @MainActor (Value) -> Void)
        -> @Sendable (Value) -> Void
    {
        { value in
            if DispatchQueue.isMainQueueCurrent {
                MainActor.assumeIsolated { handler(value) }
            } else {
                GlobalQueues.main.async { MainActor.assumeIsolated { handler(value) } }
            }
        }
    }

    /// Adapts a main-actor-isolated callback that takes no value (a timer's handler, a `Void` notification's
    /// observer); see `onMainActor(_:)` taking a value.
    public static func onMainActor(_ handler: @escaping @MainActor () -> Void) -> @Sendable () -> Void {
        {
            if DispatchQueue.isMainQueueCurrent {
                MainActor.assumeIsolated { handler() }
            } else {
                GlobalQueues.main.async { MainActor.assumeIsolated { handler() } }
            }
        }
    }
}

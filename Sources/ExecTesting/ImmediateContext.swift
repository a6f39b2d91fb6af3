// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit

/// A context that runs everything at once, on the caller's thread, delayed and repeating work included, moving its
/// clock by each delay; see ``ExecKit/Exec/immediate(clock:)``.
final class ImmediateContext: ExecutionContext {
    private let clock: ImmediateClock

    init(clock: ImmediateClock) { self.clock = clock }

    var type: ExecutionType { .immediate }
    var isCurrent: Bool { true }
    var isReentrant: Bool { true }

    func invoke(_ execute: @escaping @Sendable () -> Void) { execute() }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { execute() }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { execute() }
    func invokeSync<Return>(_ execute: () throws -> Return) rethrows -> Return { try execute() }

    func invoke(after delay: Duration, _ execute: @escaping @Sendable () -> Void) {
        _ = clock.advance(by: delay)
        execute()
    }

    func singleTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void) -> any Lifetime {
        _ = clock.advance(by: interval)
        handler()
        return FiredTimer()
    }

    func periodicTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void)
        -> any Lifetime
    {
        _ = clock.advance(by: interval)
        handler()
        return FiredTimer()
    }

    func timestamp() -> DispatchTime { clock.now.dispatchTime }

    /// Itself: everything here runs at once, wherever it is moved.
    func relativeAsync(qos: DispatchQoS.QoSClass?) -> Exec { .custom(self) }

    /// Jobs cannot run inside `enqueue`, so tasks go to the global concurrent executor, as `Task { }`'s do.
    var taskExecutor: any TaskExecutor { globalConcurrentExecutor }
}

/// The handle of a timer that has already fired for the last time: cancelling it does nothing.
private final class FiredTimer: Lifetime {
    func cancel() {}
}

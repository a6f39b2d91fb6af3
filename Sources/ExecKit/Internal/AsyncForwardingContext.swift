// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// A context whose `invoke` is the wrapped context's `invokeAsync`: what ``Exec/alwaysAsync()`` makes of a custom
/// context that may run blocks immediately. Everything else is the wrapped context's: its clock, its timers, its
/// executors, so a derived context of a `TestCoordinator`'s stays in virtual time.
struct AsyncForwardingContext: ExecutionContext {
    let wrapped: any ExecutionContext

    init(wrapping context: any ExecutionContext) { wrapped = context }

    var type: ExecutionType { wrapped.type.isConcurrent ? .concurrentAsync : .serialAsync }

    var isCurrent: Bool { wrapped.isCurrent }

    /// The wrapped context's answer: `invokeSync` is the wrapped context's.
    var isReentrant: Bool { wrapped.isReentrant }

    var unownedSerialExecutor: UnownedSerialExecutor { wrapped.unownedSerialExecutor }

    func invoke(_ execute: @escaping @Sendable () -> Void) { wrapped.invokeAsync(execute) }

    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { wrapped.invokeAsync(execute) }

    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { wrapped.invokeAndWait(execute) }

    func invokeSync<Return>(_ execute: () throws -> Return) rethrows -> Return { try wrapped.invokeSync(execute) }

    func timestamp() -> DispatchTime { wrapped.timestamp() }

    func relativeAsync(qos: DispatchQoS.QoSClass?) -> Exec { wrapped.relativeAsync(qos: qos) }

    // Timers are the wrapped context's own: they run their handlers where it runs, which is where this one does.

    func singleTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void) -> any Lifetime {
        wrapped.singleTimer(interval: interval, leeway: leeway, handler: handler)
    }

    func periodicTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void)
        -> any Lifetime
    {
        wrapped.periodicTimer(interval: interval, leeway: leeway, handler: handler)
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// A context whose `invoke` is the wrapped context's `invokeAsync`: what ``Exec/relativeAsync()`` makes of a custom
/// context that may run blocks immediately.
struct AsyncForwardingContext: ExecutionContext {
    let wrapped: any ExecutionContext

    init(wrapping context: any ExecutionContext) { wrapped = context }

    var type: ExecutionType { wrapped.type.isConcurrent ? .concurrentAsync : .serialAsync }

    var isCurrent: Bool { wrapped.isCurrent }

    var unownedSerialExecutor: UnownedSerialExecutor { wrapped.unownedSerialExecutor }

    func invoke(_ execute: @escaping @Sendable () -> Void) { wrapped.invokeAsync(execute) }

    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { wrapped.invokeAsync(execute) }

    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { wrapped.invokeAndWait(execute) }

    func invokeSync<Return>(_ execute: () throws -> Return) rethrows -> Return { try wrapped.invokeSync(execute) }

    func timestamp() -> DispatchTime { wrapped.timestamp() }
}

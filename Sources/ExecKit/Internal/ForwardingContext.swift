// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// A context derived from another by changing only when `invoke` runs a block: what ``Exec/alwaysAsync()`` and
/// ``Exec/inlineWhenCurrent()`` make of a context that has no such variant of its own. Everything else is the wrapped
/// context's: its clock, its timers, its executors, so a derived context of a `TestCoordinator`'s stays in virtual time.
/// The one forwarding layer for derived contexts: a requirement forwarded here is forwarded for both.
struct ForwardingContext: ExecutionContext {
    /// How the derived context's `invoke` differs from the wrapped one's.
    enum Invocation {
        /// `invoke` is the wrapped context's `invokeAsync`: never before returning.
        case alwaysAsync
        /// `invoke`, `invokeAndWait` and `invokeSync` run the block at once when the caller is inside the wrapped
        /// context (its `isCurrent`), and as the wrapped context does otherwise.
        case inlineWhenCurrent
    }

    let wrapped: any ExecutionContext
    let invocation: Invocation

    init(wrapping context: any ExecutionContext, _ invocation: Invocation) {
        wrapped = context
        self.invocation = invocation
    }

    var type: ExecutionType {
        let wrappedType = wrapped.type
        switch invocation {
        case .alwaysAsync:
            return wrappedType.isConcurrent ? .concurrentAsync : .serialAsync
        case .inlineWhenCurrent:
            switch wrappedType {
            case .immediate, .mutex, .conditionallyAsync: return wrappedType
            case .serialAsync: return .conditionallyAsync(!wrapped.isCurrent)
            case .concurrentAsync: return wrapped.isCurrent ? .immediate : .concurrentAsync
            }
        }
    }

    var isCurrent: Bool { wrapped.isCurrent }

    /// The wrapped context's answer (`invokeSync` is the wrapped context's), and for `inlineWhenCurrent` also `true`
    /// inside it, where a nested call runs inline; never `true` on the strength of an `isCurrent` that cannot tell.
    var isReentrant: Bool {
        switch invocation {
        case .alwaysAsync: return wrapped.isReentrant
        case .inlineWhenCurrent: return wrapped.isReentrant || wrapped.isCurrent
        }
    }

    var unownedSerialExecutor: UnownedSerialExecutor { wrapped.unownedSerialExecutor }

    func invoke(_ execute: @escaping @Sendable () -> Void) {
        switch invocation {
        case .alwaysAsync: wrapped.invokeAsync(execute)
        case .inlineWhenCurrent: if wrapped.isCurrent { execute() } else { wrapped.invoke(execute) }
        }
    }

    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { wrapped.invokeAsync(execute) }

    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) {
        if invocation == .inlineWhenCurrent, wrapped.isCurrent { return execute() }
        wrapped.invokeAndWait(execute)
    }

    func invokeSync<Return>(_ execute: () throws -> Return) rethrows -> Return {
        if invocation == .inlineWhenCurrent, wrapped.isCurrent { return try execute() }
        return try wrapped.invokeSync(execute)
    }

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

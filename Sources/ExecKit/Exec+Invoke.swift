// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

extension Exec {
    /// Runs `execute` the way this context prefers; see each case.
    ///
    /// - Cost: on ``direct``, a closure call and nothing else; on ``main`` from the main queue, a current-queue check
    ///   (a thread-local read) plus the call. A closure literal that captures values is allocated by the caller either
    ///   way; ``invoke(_:with:)`` avoids that.
    @inlinable
    public func invoke(_ execute: @escaping @Sendable () -> Void) {
        switch self {
        case .direct:
            execute()  // fast path: the whole reason Exec is an enum
        case .main where DispatchQueue.isMainQueueCurrent:
            execute()
        default:
            invokeElsewhere(execute)
        }
    }

    /// Calls `handler(value)` the way this context prefers, like `invoke { handler(value) }` but cheaper.
    ///
    /// This is the delivery step of a callback API: `context.invoke(completion, with: result)`. A closure literal
    /// passed to ``invoke(_:)`` that captures more than one reference is allocated by the caller *before* `invoke`
    /// can look at the context; here the closure that carries `value` elsewhere is only built on the paths that need
    /// it.
    ///
    /// - Cost: on ``direct``, and on ``main`` from the main queue, a call of `handler` and no allocation.
    @inlinable
    public func invoke<Value: Sendable>(_ handler: @escaping @Sendable (Value) -> Void, with value: Value) {
        switch self {
        case .direct:
            handler(value)  // fast path: no closure is formed
        case .main where DispatchQueue.isMainQueueCurrent:
            handler(value)
        default:
            invokeElsewhere { handler(value) }
        }
    }

    /// Runs `execute` asynchronously: never before returning, whatever the context.
    ///
    /// ``direct`` uses a default-QoS global queue; main-queue cases queue on the main queue (``mainOrdered`` in its
    /// order); `.queue` uses `queue.async`; ``custom(_:)`` forwards.
    public func invokeAsync(_ execute: @escaping @Sendable () -> Void) {
        switch self {
        case .mainOrdered: MainOrderedQueue.enqueue(execute)
        case .custom(let context): context.invokeAsync(execute)
        default: dispatchQueue.async(execute: execute)
        }
    }

    /// Runs `execute` in this context and returns once it has finished; see ``invokeSync(_:)``.
    public func invokeAndWait(_ execute: @escaping @Sendable () -> Void) {
        invokeSync(execute)
    }

    /// Runs `execute` in this context, waits for it, and returns its value or rethrows its error.
    ///
    /// - ``direct``, and the main-queue cases when already on the main queue: runs immediately (on ``mainOrdered``
    ///   this overtakes pending blocks, because waiting for them from the main queue could never end).
    /// - A serial `.queue` that is already current: runs immediately, unless the type is ``ExecutionType/mutex``, which
    ///   stops the program with a message (waiting would deadlock).
    /// - Otherwise: `sync` on the context's queue; ``custom(_:)`` forwards.
    public func invokeSync<Return>(_ execute: () throws -> Return) rethrows -> Return {
        switch self {
        case .direct:
            return try execute()
        case .main, .mainAsync, .mainOrdered:
            if DispatchQueue.isMainQueueCurrent { return try execute() }
            return try GlobalQueues.main.sync(execute: execute)
        case .interactive, .user, .default, .utility, .background:
            return try dispatchQueue.sync(execute: execute)
        case .custom(let context):
            return try context.invokeSync(execute)
        case .queue(let queue, let type):
            // Only serial types ask whether they are already current: waiting on a concurrent queue from inside it
            // cannot deadlock, and global queues should not be marked.
            switch type {
            case .immediate, .concurrentAsync:
                return try queue.sync(execute: execute)
            case .mutex:
                if queue.isCurrent { Self.reentrantMutexFailure(queue) }
                return try queue.sync(execute: execute)
            case .serialAsync, .conditionallyAsync:
                if queue.isCurrent { return try execute() }
                return try queue.sync(execute: execute)
            }
        }
    }

    /// Everything but the inlined fast paths of ``invoke(_:)``.
    @usableFromInline
    func invokeElsewhere(_ execute: @escaping @Sendable () -> Void) {
        switch self {
        case .direct:
            execute()
        case .main:
            if DispatchQueue.isMainQueueCurrent { execute() } else { GlobalQueues.main.async(execute: execute) }
        case .mainOrdered:
            MainOrderedQueue.invoke(execute)
        case .mainAsync, .interactive, .user, .default, .utility, .background:
            dispatchQueue.async(execute: execute)
        case .custom(let context):
            context.invoke(execute)
        case .queue(let queue, let type):
            switch type {
            case .serialAsync, .concurrentAsync:
                queue.async(execute: execute)
            case .conditionallyAsync:
                if queue.isCurrent { execute() } else { queue.async(execute: execute) }
            case .mutex, .immediate:
                invokeSync(execute)
            }
        }
    }

    /// The queue behind every case but ``custom(_:)``; ``direct`` answers the default-QoS global queue, where its
    /// asynchronous work and timers go.
    var dispatchQueue: DispatchQueue {
        switch self {
        case .main, .mainAsync, .mainOrdered: return GlobalQueues.main
        case .interactive: return GlobalQueues.userInteractive
        case .user: return GlobalQueues.userInitiated
        case .direct, .default: return GlobalQueues.default
        case .utility: return GlobalQueues.utility
        case .background: return GlobalQueues.background
        case .queue(let queue, _): return queue
        case .custom: preconditionFailure("Exec.custom has no DispatchQueue")
        }
    }

    static func reentrantMutexFailure(_ queue: DispatchQueue) -> Never {
        fatalError(
            "ExecKit: Exec.queue(\"\(queue.label)\", .mutex) was invoked from inside that same queue. "
                + "It is a non-re-entrant mutex, so waiting would deadlock. Use invokeAsync, or a context whose type "
                + "is re-entrant.")
    }
}

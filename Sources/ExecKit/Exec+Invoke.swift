// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

extension Exec {
    /// Runs `execute` the way this context prefers; see each case.
    ///
    /// - Cost: on ``direct``, a closure call and nothing else; on ``main`` from the main queue, a current-queue check
    ///   (a thread-local read) plus the call. A closure literal that captures values is allocated by the caller either
    ///   way; ``invoke(_:with:)`` avoids that. <!-- G-direct-cost-call G-alloc-free-paths -->
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
    /// - Cost: on ``direct``, and on ``main`` from the main queue, a call of `handler`. No allocation when `handler`
    ///   is a closure literal. When it is a closure *value* (a `completion` parameter, say), Swift wraps it in a
    ///   reabstraction thunk to pass it here, a 32-byte allocation in the caller whatever the context; a caller on a
    ///   hot path avoids it with `switch context { case .direct: handler(value) default: context.invoke(handler,
    ///   with: value) }`. <!-- G-alloc-free-paths -->
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

    /// Runs `execute` asynchronously: never before returning, whatever the context. <!-- G-invokeasync-never-inline -->
    ///
    /// ``direct`` uses a default-QoS global queue; main-queue cases queue on the main queue (``mainOrdered`` in its
    /// order); `.queue` uses `queue.async`; ``custom(_:)`` forwards.
    /// <!-- G-direct-invokeasync-default-qos G-main-ordered-no-overtake -->
    public func invokeAsync(_ execute: @escaping @Sendable () -> Void) {
        if let replacement = overridden { return replacement.invokeAsync(execute) }
        switch self {
        case .mainOrdered: MainOrderedQueue.enqueue(execute)
        case .custom(let context): context.invokeAsync(execute)
        case .queue(let queue, .mutex), .queue(let queue, .serialAsync), .queue(let queue, .conditionallyAsync):
            // Recorded, so that a block that arrived this way and then waits on another queue still counts as inside.
            SerialQueueEntry(queue).async(execute)
        case .queue(let queue, _): queue.async(execute: execute)
        case .main, .mainAsync: SerialQueueEntry.main.async(execute)
        default: submit(execute, to: rawQueue)
        }
    }

    /// Runs `execute` in this context and returns once it has finished; see ``invokeSync(_:)``.
    public func invokeAndWait(_ execute: @escaping @Sendable () -> Void) {
        invokeSync(execute)
    }

    /// Whether this thread runs inside `queue`: on it (or a queue targeting it), or inside an ExecKit `sync` on it
    /// with other `sync` calls in between.
    ///
    /// A global queue has no identity; with a serial `type` it is a misuse that stops the program with a message.
    @inline(__always)
    static func isInside(_ queue: DispatchQueue, as type: ExecutionType) -> Bool {
        if EnteredContexts.contains(queue) { return true }
        switch queue.currentness {
        case .current: return true
        case .notCurrent: return false
        case .globalQueue: globalQueueMisuse(queue, type)
        }
    }

    /// ``isInside(_:as:)`` for types that accept global queues, which answer `false`.
    static func isKnownInside(_ queue: DispatchQueue) -> Bool {
        EnteredContexts.contains(queue) || queue.currentness == .current
    }

    /// Everything but the inlined fast paths of ``invoke(_:)``.
    @usableFromInline
    func invokeElsewhere(_ execute: @escaping @Sendable () -> Void) {
        switch self {
        case .direct:
            execute()
        case .main:
            if Self.isInsideMainQueue {
                execute()
            } else if let replacement = overridden {
                replacement.invoke(execute)
            } else {
                SerialQueueEntry.main.async(execute)
            }
        case .mainOrdered:
            if let replacement = overridden { replacement.invoke(execute) } else { MainOrderedQueue.invoke(execute) }
        case .mainAsync:
            if let replacement = overridden {
                replacement.invoke(execute)
            } else {
                SerialQueueEntry.main.async(execute)
            }
        case .interactive, .user, .default, .utility, .background:
            if let replacement = overridden {
                replacement.invoke(execute)
            } else {
                submit(execute, to: rawQueue)
            }
        case .custom(let context):
            context.invoke(execute)
        case .queue(let queue, let type):
            switch type {
            case .serialAsync:
                SerialQueueEntry(queue).async(execute)
            case .concurrentAsync:
                queue.async(execute: execute)
            case .conditionallyAsync:
                if Self.isInside(queue, as: type) { execute() } else { SerialQueueEntry(queue).async(execute) }
            case .mutex, .immediate:
                invokeSync(execute)
            }
        }
    }

    /// The raw libdispatch queue behind the main-queue and global-queue cases (``submit(_:to:)`` takes the global
    /// ones).
    var rawQueue: UnsafeRawPointer {
        switch self {
        case .main, .mainAsync, .mainOrdered: return RawQueues.main
        case .interactive: return RawQueues.userInteractive
        case .user: return RawQueues.userInitiated
        case .direct, .default: return RawQueues.default
        case .utility: return RawQueues.utility
        case .background: return RawQueues.background
        case .queue, .custom: preconditionFailure("ExecKit: only the shared queues have a raw queue here")
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
            "ExecKit: Exec.queue(\"\(queue.label)\", .mutex) (such as Exec.syncQueue()) was invoked from inside that "
                + "same queue, directly or through sync calls on other queues. It is a non-re-entrant mutex, so "
                + "waiting would deadlock. Use invokeAsync for nested work, or a re-entrant context such as "
                + "Exec.asyncQueue(), whose invokeSync runs inline when already inside.")
    }

    static func globalQueueMisuse(_ queue: DispatchQueue, _ type: ExecutionType) -> Never {
        fatalError(
            "ExecKit: Exec.queue(\"\(queue.label)\", \(type)) gives a global queue a serial type. Global queues are "
                + "concurrent and every queue targets one, so ExecKit cannot tell whether the caller is inside it. Use "
                + ".utility (or another global case), Exec.queue(queue, .concurrentAsync), or a private serial queue "
                + "such as Exec.asyncQueue().")
    }
}

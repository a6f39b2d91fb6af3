// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

extension Exec {
    /// A new private serial queue used as a mutex: `invoke` waits for the block (type ``ExecutionType/mutex``).
    /// <!-- G-queue-sync-mutex -->
    ///
    /// Invoking it from inside one of its own blocks would deadlock; ExecKit detects that and stops the program with
    /// a message. Its ``invokeAsync(_:)`` queues without waiting. Made inside ExecTesting's
    /// `overridingSharedContexts`, it is a simulated `.mutex` queue of the test's coordinator, named `label`.
    /// <!-- G-misuse-stops-with-message G-virtual-override-private-queues -->
    public static func syncQueue(label: String = "ExecKit.syncQueue", qos: DispatchQoS = .unspecified) -> Exec {
        if let simulated = SharedContextOverride.serialQueue(label: label, type: .mutex) { return simulated }
        return .queue(DispatchQueue(label: label, qos: qos), .mutex)
    }

    /// A new private serial queue: `invoke` returns at once and blocks run one at a time, in FIFO order
    /// (type ``ExecutionType/serialAsync``). <!-- G-queue-async-serial G-serial-fifo-one-at-a-time -->
    ///
    /// ``invokeSync(_:)`` from inside the queue runs the block immediately instead of deadlocking. Made inside
    /// ExecTesting's `overridingSharedContexts`, it is a simulated serial queue of the test's coordinator, named
    /// `label`. <!-- G-invokesync-inline-inside G-virtual-override-private-queues -->
    public static func asyncQueue(label: String = "ExecKit.asyncQueue", qos: DispatchQoS = .unspecified) -> Exec {
        if let simulated = SharedContextOverride.serialQueue(label: label, type: .serialAsync) { return simulated }
        return .queue(DispatchQueue(label: label, qos: qos), .serialAsync)
    }

    /// This context made serial: blocks run one at a time, never two at once. <!-- G-serialized-makes-serial -->
    ///
    /// - ``direct``: a re-entrant mutex (``MutexContext``, type ``ExecutionType/mutex``): a nested invoke on the same
    ///   thread runs inline, as CwlUtils' did. Made inside ExecTesting's `overridingSharedContexts`, it is a mutex around
    ///   the test's coordinator's `direct`, all in virtual time: its `invokeAsync`, timers, clock and executors.
    ///   <!-- G-serialized-immediate-reentrant G-virtual-serialized-direct -->
    /// - The global-queue cases and concurrent `.queue`s: a new private serial queue that targets them (for a
    ///   global-queue case inside ExecTesting's `overridingSharedContexts`, a simulated serial queue of the test's
    ///   coordinator named `"ExecKit.serialized"`).
    ///   <!-- G-serialized-global-serial-queue G-virtual-override-private-queues -->
    /// - A concurrent ``custom(_:)`` context: an immediate one is wrapped in a re-entrant mutex, an asynchronous one
    ///   gets a FIFO that hands it its blocks in batches, one submission per batch. Like a serial Dispatch queue, it
    ///   gives the context's thread back between batches, so a block that keeps submitting more never holds one for
    ///   good. Either way the result keeps the context's clock and timers.
    ///   <!-- G-serialized-custom G-custom-derived-keeps-clock -->
    /// - Contexts that are already serial are returned unchanged. <!-- G-serialized-keeps-serial -->
    ///
    /// Each call creates a new serial context; keep the result to serialize against it.
    /// <!-- G-serialized-new-each-call -->
    public func serialized() -> Exec {
        switch self {
        case .direct:
            if let simulated = SharedContextOverride.direct { return .custom(MutexContext(wrapping: simulated)) }
            return .custom(MutexContext())
        case .main, .mainAsync, .mainOrdered:
            return self
        case .interactive, .user, .default, .utility, .background:
            if let simulated = SharedContextOverride.serialQueue(label: "ExecKit.serialized", type: .serialAsync) {
                return simulated
            }
            return .queue(DispatchQueue(label: "ExecKit.serialized", target: dispatchQueue), .serialAsync)
        case .queue(let queue, let type):
            switch type {
            case .immediate: return .queue(DispatchQueue(label: "ExecKit.serialized", target: queue), .mutex)
            case .concurrentAsync:
                return .queue(DispatchQueue(label: "ExecKit.serialized", target: queue), .serialAsync)
            case .mutex, .serialAsync, .conditionallyAsync: return self
            }
        case .custom(let context):
            switch context.type {
            case .immediate: return .custom(MutexContext(wrapping: context))
            case .concurrentAsync: return .custom(SerializedContext(wrapping: context))
            case .mutex, .serialAsync, .conditionallyAsync: return self
            }
        }
    }

    /// An asynchronous context that runs where this one does, so work can safely escape from inside this one without
    /// re-entrancy: `invoke` on the result never runs the block before returning. <!-- G-alwaysasync-same-place -->
    ///
    /// ``direct`` becomes ``default``; ``main`` and ``mainOrdered`` become ``mainAsync``; a synchronous or conditional
    /// `.queue` becomes the same queue used asynchronously; a ``custom(_:)`` context that can be immediate is wrapped
    /// so that `invoke` calls its `invokeAsync` (keeping its clock, timers and executors). Asynchronous contexts are
    /// returned unchanged. (CwlUtils has no such call; its `relativeAsync` moves work to a global queue, as
    /// ``relativeAsync(qos:)`` does here.) <!-- G-custom-derived-keeps-clock -->
    public func alwaysAsync() -> Exec {
        switch self {
        case .direct: return .default
        case .main, .mainOrdered: return .mainAsync
        case .mainAsync, .interactive, .user, .default, .utility, .background: return self
        case .queue(let queue, let type):
            switch type {
            case .immediate: return .queue(queue, .concurrentAsync)
            case .mutex, .conditionallyAsync: return .queue(queue, .serialAsync)
            case .serialAsync, .concurrentAsync: return self
            }
        case .custom(let context):
            switch context.type {
            case .serialAsync, .concurrentAsync: return self
            case .immediate, .mutex, .conditionallyAsync:
                return .custom(ForwardingContext(wrapping: context, .alwaysAsync))
            }
        }
    }

    /// A context that runs a block at once, on the caller's thread, when the caller is already inside this one
    /// (``isCurrent``), and otherwise as this one does: "run it here if I am already there, else hop". CwlUtils'
    /// `conditionallyAsync` type, for any context. <!-- G-inline-when-current -->
    ///
    /// ```swift
    /// let context = store.context.inlineWhenCurrent()
    /// context.invoke { store.apply(change) }  // inline from inside the store's queue; queued from anywhere else
    /// ```
    ///
    /// `invoke`, `invokeAndWait` and `invokeSync` run inline when inside; ``invokeAsync(_:)`` still never runs the
    /// block before returning. Timers, the clock and the executors are this context's.
    /// - ``asyncQueue(label:qos:)`` and other serial `.queue`s become the same queue with type
    ///   ``ExecutionType/conditionallyAsync(_:)``; ``mainAsync`` becomes ``main``, and ``mainOrdered`` becomes ``main``
    ///   too (inline even when blocks are queued ahead: that is what was asked).
    /// - A `.mutex` or `.concurrentAsync` `.queue` and a ``custom(_:)`` context of type ``ExecutionType/serialAsync``,
    ///   ``ExecutionType/mutex`` or ``ExecutionType/concurrentAsync`` are wrapped: `invoke` asks the context's
    ///   `isCurrent`, then runs the block or calls the context's `invoke` (a mutex still waits from outside).
    /// - Contexts that already run inline when inside are returned unchanged: ``direct``, ``main``, immediate and
    ///   conditional ones, a ``MutexContext`` (re-entrant), and a context this call made. So are the global-queue
    ///   cases, whose ``isCurrent`` is always `false`: no caller is ever known to be inside one, so their blocks always
    ///   hop.
    ///
    /// "Inside" is the context's ``isCurrent``: a context of your own that keeps the default (`false`) never runs a
    /// block inline this way. When inline is safe: inside a serial context the caller holds its exclusion, so the
    /// block runs alone as it would after a hop (inside a concurrent one, it runs on a thread of it, as it might after
    /// a hop). But it runs now, before blocks already queued there, and inside the caller's own block, whose state may
    /// be half updated: use it for work that is ordered only against the caller (a callback that completes the
    /// caller's request), not for work that must follow what is already queued; ``invokeAsync(_:)`` keeps that order.
    /// <!-- G-inline-when-current-order -->
    ///
    /// - Cost: one ``isCurrent`` per `invoke`, `invokeAndWait` or `invokeSync` call (for a `.queue`, a thread-local
    ///   read and two queue-specific look-ups), and for a wrapped context an existential call.
    ///   <!-- G-inline-when-current-cost -->
    public func inlineWhenCurrent() -> Exec {
        switch self {
        case .direct, .main: return self
        case .mainAsync, .mainOrdered: return .main
        case .interactive, .user, .default, .utility, .background: return self
        case .queue(let queue, let type):
            switch type {
            case .immediate, .conditionallyAsync: return self
            case .serialAsync: return .queue(queue, .conditionallyAsync(true))
            case .mutex, .concurrentAsync: return .custom(ForwardingContext(wrapping: self, .inlineWhenCurrent))
            }
        case .custom(let context):
            if context is MutexContext { return self }
            if let derived = context as? ForwardingContext, derived.invocation == .inlineWhenCurrent { return self }
            switch context.type {
            case .immediate, .conditionallyAsync: return self
            case .mutex, .serialAsync, .concurrentAsync:
                return .custom(ForwardingContext(wrapping: context, .inlineWhenCurrent))
            }
        }
    }

    /// A concurrent asynchronous context to move work to, away from this one: CwlUtils' `relativeAsync`, with the same
    /// answers when `qos` is `nil`. <!-- G-exec-relativeasync -->
    ///
    /// ``main`` and the main-queue cases give ``interactive``; ``direct`` gives ``default``; a `.queue` gives the
    /// global-queue case of its queue's QoS; a global-queue case gives itself; a ``custom(_:)`` context answers
    /// ``ExecutionContext/relativeAsync(qos:)`` (a `TestCoordinator`'s contexts answer with the coordinator's global
    /// queue). A `qos` other than `nil` picks the global-queue case of that QoS instead, except for custom contexts,
    /// which receive it. To leave a block without leaving the queue, use ``alwaysAsync()``.
    /// <!-- G-exec-relativeasync G-virtual-relativeasync -->
    public func relativeAsync(qos: DispatchQoS.QoSClass? = nil) -> Exec {
        switch self {
        case .custom(let context): return context.relativeAsync(qos: qos)
        case .main, .mainAsync, .mainOrdered: return .globalCase(qos: qos ?? .userInteractive)
        case .direct: return .globalCase(qos: qos ?? .default)
        case .queue(let queue, _): return .globalCase(qos: qos ?? queue.qos.qosClass)
        case .interactive, .user, .default, .utility, .background: return qos.map { .globalCase(qos: $0) } ?? self
        }
    }

    /// The global-queue case for `qos` (``default`` for `.default` and `.unspecified`).
    static func globalCase(qos: DispatchQoS.QoSClass) -> Exec {
        switch qos {
        case .userInteractive: return .interactive
        case .userInitiated: return .user
        case .utility: return .utility
        case .background: return .background
        default: return .default
        }
    }
}

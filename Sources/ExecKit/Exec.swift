// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// The execution context parameter of a callback API: where and how a callback runs.
///
/// ```swift
/// func load(_ url: URL, context: Exec = .main, completion: @escaping @Sendable (Result<Data, any Error>) -> Void)
/// load(url, context: .utility) { result in … }
/// ```
///
/// `Exec` is an enum so that the compiler sees every common case and ``invoke(_:)`` on ``direct`` costs what calling
/// the closure costs. Only ``custom(_:)`` goes through an existential. Callers that want to skip building a closure
/// altogether can `switch context { case .direct: work() default: context.invoke { work() } }`.
/// <!-- G-direct-cost-call -->
///
/// In tests, ExecTesting's `TestCoordinator.overridingSharedContexts { … }` redirects the main-queue and global-queue
/// cases to virtual time for the code inside it; only slow paths consult it, so the fast paths cost the same.
/// <!-- G-virtual-override-redirects G-virtual-override-cost -->
///
/// `Exec` is one word (`MemoryLayout<Exec>.size == 8` on 64-bit platforms): ``custom(_:)`` and ``queue(_:_:)`` are
/// stored indirectly, so passing and switching on an `Exec` never copies an existential. <!-- G-exec-one-word -->
///
/// ## Comparing contexts
///
/// `Exec` is deliberately not `Equatable`, so `context == .main` does not compile. Match the case instead:
///
/// ```swift
/// if case .main = context { … }                                  // is it .main?
/// switch context { case .direct: work() default: context.invoke { work() } }
/// if case .queue(let queue, _) = context, queue === myQueue { … }   // my queue, whatever its type
/// if case .custom(let other) = context, other as AnyObject === myContext { … }  // my class-based context
/// ```
///
/// Why not `==`: a ``custom(_:)`` context may be a value type with no identity and no `Equatable` conformance (the
/// protocol asks for neither), and for such a value no `==` can be both reflexive (`x == x`) and truthful; an
/// `Equatable` that breaks reflexivity breaks every `Set`, `Dictionary` and `firstIndex(of:)` that relies on it. Nor
/// would structural equality answer the question users ask: `.main` and `.queue(.main, .conditionallyAsync(true))`
/// run in the same place yet are different cases. Pattern matching says exactly which question is asked, costs a
/// compare of the case tag, and for queues and class contexts compares identity with `===`.
public enum Exec: ExecutionContext {
    /// Runs blocks on the calling thread, before `invoke` returns. Immediate, concurrent, re-entrant; costs a closure
    /// call. ``invokeAsync(_:)`` runs on a default-QoS global queue.
    /// <!-- G-direct-inline G-direct-cost-call G-direct-invokeasync-default-qos -->
    case direct

    /// The main queue, immediately when the caller already runs on it, asynchronously otherwise.
    ///
    /// "Already on it" is `DispatchQueue.isMainQueueCurrent`: isolated to `MainActor`, which is not always
    /// thread 1. The check never gives a false positive; where it gives a false negative the block is merely queued.
    /// <!-- G-main-inline-on-main-queue -->
    ///
    /// A block run for a main-queue caller parked in an ExecKit `sync` (`q.invokeSync { … }` called from the main
    /// queue) is inside the main queue too, and every path says so alike: ``isCurrent``, ``type``, ``invoke(_:)``,
    /// ``invokeSync(_:)`` and `perform` all run inline there, as ``mainOrdered`` does with nothing of its own pending.
    /// <!-- G-main-one-answer -->
    ///
    /// - Ordering: an immediate invoke on the main queue runs *before* blocks that other threads queued earlier and
    ///   that have not started yet. When that matters (a later event must not overtake an earlier one), use
    ///   ``mainOrdered``. <!-- G-main-overtakes -->
    case main

    /// The main queue, always asynchronously, in FIFO order with everything else queued there.
    /// <!-- G-main-async-never-inline G-serial-fifo-one-at-a-time -->
    case mainAsync

    /// The main queue, immediately when the caller runs on the main queue and no earlier `.mainOrdered` block is still
    /// waiting; otherwise queued behind those blocks. <!-- G-main-ordered-inline-when-idle -->
    ///
    /// - Ordering: every block submitted with `.mainOrdered` runs after the `.mainOrdered` blocks submitted before it
    ///   (with a happens-before relation). Blocks queued on the main queue by other means are not tracked.
    ///   <!-- G-main-ordered-no-overtake -->
    /// - Cost: on the immediate path, `.main`'s current-queue check plus an override check and one atomic load, outside
    ///   the inlined fast path: 99 instructions for ``invoke(_:)`` against `.main`'s 45, and ``invoke(_:with:)`` forms
    ///   the closure that carries the value (420 against 50). On the queued path, two atomic updates and a closure
    ///   around the block, within `.main`'s own queued cost. <!-- G-main-ordered-cost -->
    case mainOrdered

    /// A global concurrent queue with `.userInteractive` QoS; always asynchronous. <!-- G-queue-global-concurrent -->
    case interactive

    /// A global concurrent queue with `.userInitiated` QoS; always asynchronous. <!-- G-queue-global-concurrent -->
    case user

    /// A global concurrent queue with `.default` QoS; always asynchronous. <!-- G-queue-global-concurrent -->
    case `default`

    /// A global concurrent queue with `.utility` QoS; always asynchronous. <!-- G-queue-global-concurrent -->
    case utility

    /// A global concurrent queue with `.background` QoS; always asynchronous. <!-- G-queue-global-concurrent -->
    case background

    /// A context of your own. It is stored indirectly (one reference), so `Exec` stays small; `.custom` pays one
    /// existential call per invoke.
    indirect case custom(any ExecutionContext)

    /// Any `DispatchQueue`, with the ``ExecutionType`` that says how to use it:
    /// - ``ExecutionType/serialAsync`` or ``ExecutionType/concurrentAsync``: `invoke` is `queue.async`.
    /// - ``ExecutionType/mutex``: `invoke` is `queue.sync` (the queue used as a lock). Invoking from inside the queue is
    ///   a programming error and stops the program with a message. <!-- G-misuse-stops-with-message -->
    /// - ``ExecutionType/immediate``: `invoke` is `queue.sync`, or runs inline when the caller is already inside the
    ///   queue; meant for concurrent queues, where it makes `invoke` wait for the block.
    ///   <!-- G-queue-immediate-inline-inside -->
    /// - ``ExecutionType/conditionallyAsync(_:)``: runs inline when already inside the queue, else `queue.async`. The
    ///   associated value carries no meaning here: `.conditionallyAsync(true)` and `.conditionallyAsync(false)` make the
    ///   same context, and ``type`` reports the answer for the current caller.
    ///   <!-- G-queue-conditional-inline-inside -->
    ///
    /// "Already inside the queue" is ``isCurrent``: on the queue or a queue that targets it, or inside an ExecKit
    /// `invokeSync` on it with `sync` calls on other queues in between.
    /// <!-- G-iscurrent-per-kind G-queue-identity-targets -->
    ///
    /// - Precondition: a global queue takes ``ExecutionType/concurrentAsync`` or ``ExecutionType/immediate`` only.
    ///   Given a serial type (``ExecutionType/serialAsync``, ``ExecutionType/mutex``,
    ///   ``ExecutionType/conditionallyAsync(_:)``) it stops the program with a message at the first `invokeSync`,
    ///   conditional `invoke` or ``isCurrent``: every queue targets a global queue, so no answer to "am I inside it?"
    ///   could make it serial. A serial queue given ``ExecutionType/concurrentAsync`` is allowed (it is merely
    ///   described as weaker than it is). <!-- G-misuse-stops-with-message -->
    ///
    /// A `DispatchWorkloop` (Apple platforms) works with every type: libdispatch rejects `sync` on a workloop, so
    /// ExecKit's waits on one (`invokeSync`, and `invoke` on `.mutex` and `.immediate`) use `dispatch_async_and_wait`,
    /// which orders and excludes the same way. <!-- G-queue-workloop -->
    indirect case queue(DispatchQueue, ExecutionType)

    /// The one answer to "is this caller inside the main queue?" for every main-queue case and every path (`isCurrent`,
    /// `type`, `invoke`, `invokeSync`, `perform`): on the main queue, or in a block run for a caller parked in a `sync`
    /// there (see `EnteredContexts`). The inlined fast paths ask only the first half, which implies the answer.
    /// <!-- G-main-one-answer -->
    static var isInsideMainQueue: Bool {
        DispatchQueue.isMainQueueCurrent || EnteredContexts.contains(EnteredContexts.mainQueueKey)
    }

    /// What this context promises to the current caller.
    ///
    /// For ``main`` and ``mainOrdered`` (and `.queue(_, .conditionallyAsync)`) the answer depends on the calling
    /// thread, so do not cache it across threads. <!-- G-exec-type-current-caller -->
    public var type: ExecutionType {
        switch self {
        case .direct: return .immediate
        case .main:
            if Self.isInsideMainQueue { return .conditionallyAsync(false) }
            return overridden?.type ?? .conditionallyAsync(true)
        case .mainOrdered:
            if MainOrderedQueue.runsImmediately { return .conditionallyAsync(false) }
            return overridden?.type ?? .conditionallyAsync(true)
        case .mainAsync: return .serialAsync
        case .interactive, .user, .default, .utility, .background: return .concurrentAsync
        case .custom(let context): return context.type
        case .queue(let queue, let type):
            if case .conditionallyAsync = type { return .conditionallyAsync(!Self.isInside(queue, as: type)) }
            return type
        }
    }

    /// Whether a block running in this context may call ``invokeSync(_:)`` into it again without deadlocking (CwlUtils'
    /// meaning): `true` everywhere but a `.mutex` queue (``syncQueue(label:qos:)``), whose re-entry ExecKit stops with a
    /// message. The main-queue cases and serial `.queue`s run a nested `invokeSync` inline; ``custom(_:)`` asks its
    /// context. <!-- G-exec-isreentrant G-invokesync-inline-inside G-misuse-stops-with-message -->
    public var isReentrant: Bool {
        switch self {
        case .direct, .interactive, .user, .default, .utility, .background: return true
        case .main, .mainAsync, .mainOrdered: return overridden?.isReentrant ?? true
        case .custom(let context): return context.isReentrant
        case .queue(_, let type): return type != .mutex
        }
    }

    /// Whether the caller is running in this context now.
    ///
    /// - ``direct``: always `true` (its blocks run wherever the caller is).
    /// - ``main``, ``mainAsync``, ``mainOrdered``: `DispatchQueue.isMainQueueCurrent` (ExecDispatch), or inside a
    ///   block that ExecKit ran on the main queue (or an `invokeSync` on it) with other queues' `sync` calls in between.
    /// - The global-queue cases: `false`; every queue targets a global queue, so the question has no useful answer.
    /// - ``queue(_:_:)``: on the queue or one that targets it, through any depth, or, for a serial type, inside a block
    ///   that ExecKit ran on it (through `invoke`, `invokeAsync`, `invokeSync`, `invoke(after:)`, a timer, a task or an
    ///   actor job) with other queues' `sync` calls in between, including ExecKit's `invokeSync` on another queue,
    ///   whose block counts as inside every queue its waiting caller is inside. A global queue with a concurrent type
    ///   answers `false`.
    /// - ``custom(_:)``: the context's own ``ExecutionContext/isCurrent``. <!-- G-iscurrent-per-kind -->
    ///
    /// "Inside" means holding the context's exclusion: a block run for a caller parked in a `sync` may run on another
    /// thread, where `dispatchPrecondition(condition: .onQueue(queue))` traps while this answers `true`.
    ///
    /// - Guarantee: never a false positive. The answer does not depend on what was asked before.
    ///   <!-- G-iscurrent-no-false-positives G-queue-identity-targets -->
    /// - Cost: `.direct` a constant; `.main` a thread-local read; `.queue` a thread-local read and two queue-specific
    ///   look-ups. <!-- G-iscurrent-cost -->
    public var isCurrent: Bool {
        switch self {
        case .direct: return true
        case .main, .mainAsync, .mainOrdered:
            if Self.isInsideMainQueue { return true }
            return overridden?.isCurrent ?? false
        case .interactive, .user, .default, .utility, .background: return false
        case .custom(let context): return context.isCurrent
        case .queue(let queue, let type):
            switch type {
            case .immediate, .concurrentAsync: return Self.isKnownInside(queue)
            case .mutex, .serialAsync, .conditionallyAsync: return Self.isInside(queue, as: type)
            }
        }
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

@_spi(ExecTesting) import ExecMutex

/// A lifetime that owns other lifetimes and cancels them all together.
///
/// Collect the timers and observations of one owner in it and they end when it is cancelled or released.
/// <!-- G-lifetime-handle -->
///
/// - Release: cancelling releases the children (after cancelling them); a lifetime added after that is cancelled at
///   once and not kept. <!-- G-lifetime-release G-lifetime-aggregate -->
/// - Thread-safety: all methods may be called from any thread. Children are cancelled outside the internal lock, so a
///   child's cancellation may safely touch the aggregate. Every call of ``cancel()`` cancels every child before it
///   returns, even while another thread is cancelling the same aggregate (children's `cancel()` is idempotent).
///   <!-- G-thread-safety-any-thread G-lifetime-aggregate-child-reentry G-lifetime-aggregate-concurrent-cancel -->
public final class AggregateLifetime: Lifetime {
    private let state = LockedBox(State(), observed: false)

    private struct State: Sendable {
        var children: [any Lifetime] = []
        var isCancelled = false
    }

    /// Creates an empty aggregate.
    public init() {}

    deinit { cancel() }

    /// Adds `lifetime`, to be cancelled with this aggregate. After the aggregate was cancelled, `lifetime` is
    /// cancelled at once (before this returns) and not kept. <!-- G-lifetime-aggregate -->
    public func add(_ lifetime: some Lifetime) {
        let isCancelled = state.withLock { state in
            if !state.isCancelled { state.children.append(lifetime) }
            return state.isCancelled
        }
        if isCancelled { lifetime.cancel() }
    }

    /// The number of lifetimes the aggregate holds: those added before it was cancelled; zero once a `cancel()` has
    /// returned. <!-- G-lifetime-aggregate -->
    public var count: Int {
        state.withLock { $0.children.count }
    }

    /// Whether ``cancel()`` has been called.
    public var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    /// Cancels every lifetime added so far, in the order they were added, then releases them; every one added from
    /// now on is cancelled as it is added.
    /// <!-- G-lifetime-aggregate G-lifetime-release -->
    public func cancel() {
        let children = state.withLock { state in
            state.isCancelled = true
            return state.children
        }
        for child in children { child.cancel() }
        // Kept until now so that a concurrent call also cancels every child before it returns.
        if !children.isEmpty { state.withLock { $0.children = [] } }
    }
}

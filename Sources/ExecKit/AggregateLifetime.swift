// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Synchronization

/// A lifetime that owns other lifetimes and cancels them all together.
///
/// Collect the timers and observations of one owner in it and they end when it is cancelled or released.
///
/// - Thread-safety: all methods may be called from any thread. Children are cancelled outside the internal lock, so a
///   child's cancellation may safely touch the aggregate.
public final class AggregateLifetime: Lifetime {
    private let state = Mutex(State.active([]))

    private enum State {
        case active([any Lifetime])
        case cancelled
    }

    /// Creates an empty aggregate.
    public init() {}

    deinit { cancel() }

    /// Adds `lifetime`, to be cancelled with this aggregate. After the aggregate was cancelled, `lifetime` is
    /// cancelled at once.
    public func add(_ lifetime: some Lifetime) {
        let rejected: (any Lifetime)? = state.withLock { state in
            guard case .active(var children) = state else { return lifetime }
            state = .cancelled  // lets `children` be uniquely referenced while it grows
            children.append(lifetime)
            state = .active(children)
            return nil
        }
        if var rejected { rejected.cancel() }
    }

    /// The number of lifetimes held; zero once cancelled.
    public var count: Int {
        state.withLock { state in
            if case .active(let children) = state { return children.count }
            return 0
        }
    }

    /// Cancels every lifetime added so far, in the order they were added, and every one added from now on.
    public func cancel() {
        let children = state.withLock { state -> [any Lifetime] in
            defer { state = .cancelled }
            if case .active(let children) = state { return children }
            return []
        }
        for var child in children { child.cancel() }
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// A handle on something that runs until it is cancelled: a timer, an observation.
///
/// Hold on to it for as long as the work should go on. ``cancel()`` is idempotent. Lifetimes that are reference types
/// (every one ExecKit returns) also cancel when the last reference is released, so dropping the handle ends the
/// work; the work never outlives an unreachable handle.
public protocol Lifetime: Sendable {
    /// Ends the work. Calling it again, or after the work finished on its own, does nothing.
    mutating func cancel()
}

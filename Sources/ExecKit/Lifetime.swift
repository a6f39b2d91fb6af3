// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// A handle on something that runs until it is cancelled: a timer, an observation.
///
/// Hold on to it for as long as the work should go on; a `let` is enough, because `cancel()` does not mutate the
/// handle. Lifetimes are classes: releasing the last reference cancels too, so the work never outlives an unreachable
/// handle. <!-- G-lifetime-handle -->
///
/// - Release: whatever a lifetime holds to do its work (a handler, an observer block, a timer's parameter) is
///   released as soon as it can never run again: when `cancel()` returns (or, for a call already running on another
///   thread then, when that call returns), when the handle is released, or when a one-shot timer has fired. A closure
///   that captures its owner, whose owner holds the lifetime, therefore does not keep the owner alive after
///   cancellation. <!-- G-lifetime-release -->
/// - Thread-safety: `cancel()` may be called from any thread, any number of times.
///   <!-- G-lifetime-handle G-thread-safety-any-thread -->
public protocol Lifetime: AnyObject, Sendable {
    /// Ends the work and releases what the lifetime holds for it. Idempotent: calling it again, or after the work
    /// finished on its own, does nothing. See each lifetime for what "ended" guarantees about a call already running.
    /// <!-- G-lifetime-handle -->
    func cancel()
}

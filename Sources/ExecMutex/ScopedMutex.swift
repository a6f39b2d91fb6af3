// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// A mutual-exclusion lock that is only ever held for the duration of a closure.
///
/// Scoping the lock to a closure makes it impossible to forget an unlock or to unlock on the wrong path.
/// Conforming types must be safe to use from any thread.
public protocol ScopedMutex: AnyObject, Sendable {
    /// Runs `work` while holding the lock, blocking until the lock is available.
    ///
    /// - Returns: The value `work` returns.
    /// - Throws: Rethrows what `work` throws; the lock is released either way. <!-- G-mutex-sync-rethrow-unlocks -->
    func sync<R>(execute work: () throws -> R) rethrows -> R

    /// Runs `work` while holding the lock if the lock can be taken without waiting.
    ///
    /// - Returns: The value `work` returns, or `nil` (without running `work`) when the lock is held elsewhere.
    ///   <!-- G-mutex-try-fails-when-held -->
    /// - Throws: Rethrows what `work` throws; the lock is released either way. <!-- G-mutex-trysync-rethrow-unlocks -->
    func trySync<R>(execute work: () throws -> R) rethrows -> R?
}

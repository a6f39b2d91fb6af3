// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// What an ``ExecutionContext`` promises about when, where and how often at once its blocks run.
///
/// Callers use it to decide whether they may rely on a block having run when `invoke` returns, whether two blocks
/// may run at the same time, and whether calling back into the context from inside it is allowed.
public enum ExecutionType: Sendable, Hashable {
    /// Blocks run on the calling thread before `invoke` returns, with no serialization: two threads may run blocks
    /// at the same time. Re-entrant: a nested `invoke` simply runs the inner block inside the outer one.
    /// Example: ``Exec/direct``.
    case immediate

    /// Blocks run before `invoke` returns, one at a time (a lock or a queue waited on). Not re-entrant in general: a
    /// nested `invoke` into a mutex queue from inside a block would wait for itself, so ExecKit detects that and stops
    /// the program with a message. Example: ``Exec/syncQueue(label:qos:)``. The exception is ``MutexContext`` (what
    /// `Exec.direct.serialized()` returns), re-entrant like a recursive mutex; ``isReentrant`` still answers `false`
    /// for the type, the answer that is safe for every mutex.
    /// <!-- G-misuse-stops-with-message G-serialized-immediate-reentrant -->
    case mutex

    /// Blocks run later, on another thread, one at a time in submission order (FIFO). A nested `invoke` queues the
    /// inner block behind the outer one, and ExecKit's own serial contexts run a nested `invokeSync` inline; a serial
    /// context of the user's may instead wait for itself there, so ``isReentrant`` is `false` for the type, as it was
    /// in CwlUtils. Example: ``Exec/asyncQueue(label:qos:)``, ``Exec/mainAsync``. <!-- G-invokesync-inline-inside -->
    case serialAsync

    /// Blocks run later, on other threads, possibly several at once, in no promised order. Re-entrant: a nested
    /// `invoke` queues the inner block, which may run while the outer one is still running.
    /// Example: ``Exec/utility`` and the other global-queue cases.
    case concurrentAsync

    /// A serial context that runs a block immediately when the caller is already inside it and asynchronously
    /// otherwise. The value says which applies to the current caller: `true` means "asynchronous from here".
    /// Re-entrant: a nested `invoke` runs immediately. Example: ``Exec/main``.
    case conditionallyAsync(Bool)

    /// Whether a block passed to `invoke` has finished when `invoke` returns, for the current caller.
    ///
    /// `true` for ``immediate`` and ``mutex``, `false` for the asynchronous cases, and `!isAsync` for
    /// ``conditionallyAsync(_:)``. <!-- G-type-predicates-cwlutils -->
    @inlinable
    public var isImmediate: Bool {
        switch self {
        case .immediate, .mutex: return true
        case .serialAsync, .concurrentAsync: return false
        case .conditionallyAsync(let isAsync): return !isAsync
        }
    }

    /// Whether two blocks may run at the same time: `true` for ``immediate`` and ``concurrentAsync``.
    /// <!-- G-type-predicates-cwlutils -->
    @inlinable
    public var isConcurrent: Bool {
        switch self {
        case .immediate, .concurrentAsync: return true
        case .mutex, .serialAsync, .conditionallyAsync: return false
        }
    }

    /// Whether blocks run one at a time: the opposite of ``isConcurrent``.
    @inlinable
    public var isSerial: Bool { !isConcurrent }

    /// Whether code already running in any context of this type may call `invoke` or `invokeSync` into it again and
    /// be sure not to deadlock: CwlUtils' meaning, with the same answers.
    ///
    /// `false` for ``mutex`` (a nested wait would wait for itself) and ``serialAsync`` (a nested `invokeSync` may wait
    /// for itself in a context of the user's; ExecKit's own serial asynchronous contexts run it inline, but the type
    /// does not promise it). `true` for the others. A context's own ``ExecutionContext/isReentrant`` answers for that
    /// context: `true` for `Exec.mainAsync` and `Exec.asyncQueue()`, `.serialAsync` though they are.
    /// <!-- G-type-predicates-cwlutils G-exec-isreentrant -->
    @inlinable
    public var isReentrant: Bool {
        switch self {
        case .mutex, .serialAsync: return false
        case .immediate, .concurrentAsync, .conditionallyAsync: return true
        }
    }
}

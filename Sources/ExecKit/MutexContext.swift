// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// A mutex used as an execution context: `invoke` runs the block on the calling thread while holding the lock
/// (type ``ExecutionType/mutex``).
///
/// It is what `Exec.direct.serialized()` returns. Invoking it from inside one of its own blocks would deadlock; the
/// lock is error-checking, so that stops the program with a message instead, in every build.
///
/// - Thread-safety: may be used from any thread.
/// - Cost: an uncontended lock and unlock around the block.
public final class MutexContext: ExecutionContext {
    private let mutex = PThreadMutex(type: .errorChecking)
    private let wrapped: (any ExecutionContext)?

    /// Creates a context that runs blocks on the calling thread under a new mutex.
    public init() { wrapped = nil }

    /// Creates a context that invokes an immediate context while holding a new mutex, making it serial.
    init(wrapping context: any ExecutionContext) { wrapped = context }

    /// ``ExecutionType/mutex``.
    public var type: ExecutionType { .mutex }

    /// Runs `execute` under the lock before returning.
    public func invoke(_ execute: @escaping @Sendable () -> Void) {
        invokeSync(execute)
    }

    /// Runs `execute` under the lock on a default-QoS global queue.
    public func invokeAsync(_ execute: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async { self.invokeSync(execute) }
    }

    /// Runs `execute` under the lock before returning.
    public func invokeAndWait(_ execute: @escaping @Sendable () -> Void) {
        invokeSync(execute)
    }

    /// Runs `execute` under the lock and returns its value or rethrows its error.
    public func invokeSync<Return>(_ execute: () throws -> Return) rethrows -> Return {
        try mutex.sync {
            guard let wrapped else { return try execute() }
            return try wrapped.invokeSync(execute)
        }
    }
}

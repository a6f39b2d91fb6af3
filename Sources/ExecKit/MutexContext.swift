// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecDispatch

/// A re-entrant mutex used as an execution context: `invoke` runs the block on the calling thread while holding the
/// lock (type ``ExecutionType/mutex``).
///
/// It is what `Exec.direct.serialized()` returns. Like CwlUtils' serializing context, it is re-entrant: a block that
/// invokes the same context again, directly or through calls into other contexts, runs the nested block inline, while
/// other threads still wait their turn. (A `syncQueue()` cannot re-enter: that would deadlock, and ExecKit stops the
/// program there instead.) <!-- G-serialized-immediate-reentrant G-misuse-stops-with-message -->
///
/// Inside means the thread entered the context and has not left it, or runs for a caller parked in a `sync` that is
/// inside it (that caller lends its lock; see *Choosing a context*). One record answers this for every serial context
/// (`EnteredContexts`). <!-- G-serial-lent-exclusion -->
///
/// - Thread-safety: may be used from any thread. <!-- G-thread-safety-any-thread -->
/// - Cost: an uncontended lock and unlock around the block, plus an entry in the thread's record of entered contexts
///   (a thread-local read and two writes); a nested invoke costs a walk of that record. <!-- G-mutexcontext-cost -->
public final class MutexContext: ExecutionContext {
    private let mutex = PThreadMutex(type: .normal)
    /// This context's entry in the record of the thread holding `mutex`.
    private let entry = EnteredContexts.ExclusiveEntry()
    private let wrapped: (any ExecutionContext)?
    /// Where ``invokeAsync(_:)`` queues its blocks, so that they start in the order they were submitted; `nil` when a
    /// wrapped context's `invokeAsync` takes them.
    private let asyncQueue: DispatchQueue?
    /// Where the executors' jobs go, to run under the lock: `asyncQueue`, or for a wrapped context that may run blocks
    /// at once (an immediate context of the user's), a queue of their own, since a job must neither run nor wait for
    /// the lock inside the runtime's `enqueue`. `nil` for a wrapped `TestCoordinator` context, whose `invokeAsync`
    /// only queues, in virtual time.
    private let jobQueue: DispatchQueue?
    private let serialExecutor = OwnedSerialExecutor()

    /// Creates a context that runs blocks on the calling thread under a new mutex.
    public convenience init() { self.init(wrapped: nil) }

    /// Creates a context that invokes an immediate context while holding a new mutex, making it serial.
    convenience init(wrapping context: any ExecutionContext) { self.init(wrapped: context) }

    private init(wrapped: (any ExecutionContext)?) {
        self.wrapped = wrapped
        let asyncQueue =
            wrapped == nil ? DispatchQueue(label: "ExecKit.MutexContext.async", target: GlobalQueues.default) : nil
        self.asyncQueue = asyncQueue
        jobQueue =
            asyncQueue
            ?? (wrapped is any CallerDrivenContext
                ? nil : DispatchQueue(label: "ExecKit.MutexContext.jobs", target: GlobalQueues.default))
    }

    /// Whose clock and timers this context uses: the wrapped context's, or `Exec.direct`'s.
    private var clockSource: any ExecutionContext { wrapped ?? Exec.direct }

    /// ``ExecutionType/mutex``.
    public var type: ExecutionType { .mutex }

    /// Whether the calling thread is inside this context: it is running one of this context's blocks, possibly through
    /// calls into other contexts or queues since, or runs for a caller parked in a `sync` that is.
    /// <!-- G-iscurrent-per-kind -->
    public var isCurrent: Bool {
        EnteredContexts.contains(EnteredContexts.Key(context: self))
    }

    /// A serial executor whose jobs run under this context's lock, queued (never inline, and never waiting for the lock
    /// in the caller's frame), so an actor can run on it. Made on first use and kept for the context's whole life.
    /// <!-- G-mutexcontext-executor-queued -->
    public var unownedSerialExecutor: UnownedSerialExecutor {
        serialExecutor.get {
            ContextSerialExecutor(
                submit: { [unowned self] run in submitJob(run) },
                isCurrent: { [unowned self] in isCurrent },
                name: { "a MutexContext" }
            )
        }
    }

    /// A new `TaskExecutor` whose jobs run under this context's lock, queued as the serial executor's are.
    ///
    /// - Cost: one allocation per access, and two per job. <!-- G-task-job-allocations -->
    public var taskExecutor: any TaskExecutor {
        ContextTaskExecutor { [self] run in submitJob(run) }
    }

    /// Queues a job to run under the lock, without running it or waiting for the lock here: on ``jobQueue``, or through
    /// a wrapped `TestCoordinator` context's `invokeAsync`.
    private func submitJob(_ run: @escaping @Sendable () -> Void) {
        if let jobQueue {
            jobQueue.async { self.invokeSync(run) }
        } else {
            invokeAsync(run)
        }
    }

    /// `true`: a nested invoke on the thread that holds the lock runs inline, like a recursive mutex's.
    /// <!-- G-serialized-immediate-reentrant -->
    public var isReentrant: Bool { true }

    /// Runs `execute` under the lock before returning. <!-- G-mutexcontext-runs-before-return -->
    public func invoke(_ execute: @escaping @Sendable () -> Void) {
        invokeSync(execute)
    }

    /// Runs `execute` under the lock later: on a default-QoS thread, blocks submitted this way starting in FIFO order;
    /// or, for the mutex that `serialized()` puts around an immediate custom context, through that context's
    /// `invokeAsync`, in its order. <!-- G-mutexcontext-invokeasync-fifo -->
    public func invokeAsync(_ execute: @escaping @Sendable () -> Void) {
        if let wrapped {
            wrapped.invokeAsync { self.invokeSync(execute) }
        } else {
            asyncQueue?.async { self.invokeSync(execute) }
        }
    }

    /// The time by the wrapped context's clock (`Exec.direct`'s for a plain mutex), so that a mutex around a
    /// `TestCoordinator`'s context reads virtual time. <!-- G-custom-derived-keeps-clock -->
    public func timestamp() -> DispatchTime { clockSource.timestamp() }

    /// The wrapped context's concurrent sibling (`Exec.direct`'s, a global queue, for a plain mutex), so that work
    /// moved away from a mutex around a `TestCoordinator`'s context stays in virtual time.
    /// <!-- G-virtual-relativeasync -->
    public func relativeAsync(qos: DispatchQoS.QoSClass?) -> Exec { clockSource.relativeAsync(qos: qos) }

    /// Calls `handler` once under the lock after `interval`. The wrapped context's timer (`Exec.direct`'s for a plain
    /// mutex) decides when; once `cancel()` has returned from inside this context, the handler never starts (from
    /// elsewhere, a firing already waiting for the lock may still run).
    /// <!-- G-timer-cancel-inside G-timer-cancel-per-kind -->
    public func singleTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void)
        -> any Lifetime
    {
        forwardedTimer(
            into: self, from: clockSource, interval: interval, leeway: leeway, repeats: false, handler: handler)
    }

    /// Calls `handler` under the lock every `interval`, one run at a time: a tick that finds the previous run still
    /// going is skipped. The wrapped context's timer (`Exec.direct`'s for a plain mutex) decides when.
    /// <!-- G-timer-periodic-not-reentrant G-timer-periodic-skips-missed -->
    ///
    /// - Precondition: `interval` is positive; zero or negative stops the program with a message.
    ///   <!-- G-misuse-stops-with-message -->
    public func periodicTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void)
        -> any Lifetime
    {
        requirePositivePeriod(interval, "periodicTimer(interval:leeway:handler:)")
        return forwardedTimer(
            into: self, from: clockSource, interval: interval, leeway: leeway, repeats: true, handler: handler)
    }

    /// Runs `execute` under the lock before returning. <!-- G-mutexcontext-runs-before-return -->
    public func invokeAndWait(_ execute: @escaping @Sendable () -> Void) {
        invokeSync(execute)
    }

    /// Runs `execute` under the lock and returns its value or rethrows its error. Called from inside this context (see
    /// ``isCurrent``), it runs `execute` at once, without locking again. <!-- G-serialized-immediate-reentrant -->
    public func invokeSync<Return>(_ execute: () throws -> Return) rethrows -> Return {
        let key = EnteredContexts.Key(context: self)
        // The outer call, on this thread or on a caller parked in a `sync`, holds the lock until the nested one returns.
        if _slowPath(EnteredContexts.contains(key)) { return try execute() }
        return try mutex.sync {
            let own = entry.enter(key)
            defer { entry.leave(restoring: own) }
            guard let wrapped else { return try execute() }
            return try wrapped.invokeSync(execute)
        }
    }
}

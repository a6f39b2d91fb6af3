// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
@_spi(ExecTesting) import ExecMutex

/// An execution context of a ``TestCoordinator``: a look-alike of `.direct`, `.main`, `.mainAsync`, a global queue or
/// a serial queue whose blocks, timers and task jobs are pieces of work that the coordinator runs on the test's
/// thread, in virtual-time order.
final class SimulatedContext: CallerDrivenContext {
    /// Which real context this one imitates.
    enum Role: Sendable {
        /// `.direct`: immediate; `invokeAsync`, timers and task jobs go to the global queue.
        case direct
        /// `.main`: immediate when already in the simulated main queue, queued otherwise.
        case main
        /// `.mainAsync`: always queued on the simulated main queue.
        case mainAsync
        /// A global concurrent queue: always queued; `isCurrent` is `false`, as for a real global queue.
        case global
        /// A serial queue of the given type: `.serialAsync`, `.mutex` or `.conditionallyAsync`.
        case serial(ExecutionType)
    }

    private let role: Role
    /// Where blocks, timers and jobs go (for `.direct`, the global queue).
    private let queue: SimulatedQueue
    private let storage: CoordinatorStorage
    private let executor: SimulatedTaskExecutor

    /// The simulated queue of a serial context of `owner`'s, or `nil` (the global queue, `.direct`, another
    /// coordinator's context).
    func serialQueue(of owner: CoordinatorStorage) -> SimulatedQueue? {
        storage === owner && !queue.isConcurrent ? queue : nil  // `.direct`'s queue is the global one
    }
    /// The serial executor of a serial queue (main included), shared by every context on that queue; `nil` for the
    /// global queue and `.direct`, which are concurrent.
    private let serialExecutor: ContextSerialExecutor?
    /// The coordinator's global context, for ``relativeAsync(qos:)``; `nil` for the global context itself.
    private let global: Exec?

    init(
        role: Role, queue: SimulatedQueue, storage: CoordinatorStorage, executor: SimulatedTaskExecutor,
        global: Exec?, serialExecutor: ContextSerialExecutor? = nil
    ) {
        self.role = role
        self.queue = queue
        self.storage = storage
        self.executor = executor
        self.global = global
        self.serialExecutor = serialExecutor
    }

    /// The coordinator's global queue, whatever the QoS, as CwlUtils' `DebugContext` answered: work moved away from a
    /// simulated context stays in virtual time.
    func relativeAsync(qos: DispatchQoS.QoSClass?) -> Exec {
        global ?? .custom(self)
    }

    /// A serial executor for the simulated queue, for an actor's `unownedExecutor`: each job is a piece of work due at
    /// once in the queue, so the actor's code runs inside ``TestCoordinator/runUntilIdle()`` and `advance`, in the
    /// coordinator's order, and `isCurrent` is `true` there.
    static func serialExecutor(for queue: SimulatedQueue, storage: CoordinatorStorage) -> ContextSerialExecutor {
        ContextSerialExecutor(
            submit: { run in
                // A job the coordinator drops (discarded, or refused once the coordinator is gone) is released unrun,
                // and the executor then runs it on a real queue of its own.
                storage.scheduleNow(.job, on: queue, run)
            },
            isCurrent: { storage.isInside(queue) },
            name: { "the simulated queue \"\(queue.name)\" of a TestCoordinator" })
    }

    var type: ExecutionType {
        switch role {
        case .direct: return .immediate
        case .main: return .conditionallyAsync(!isCurrent)
        case .mainAsync: return .serialAsync
        case .global: return .concurrentAsync
        case .serial(.conditionallyAsync): return .conditionallyAsync(!isCurrent)
        case .serial(let type): return type
        }
    }

    /// As the real context it imitates: `false` for a mutex-type queue (entering it again stops the program with a
    /// message), `true` for the others, whose nested `invokeSync` runs inline.
    var isReentrant: Bool {
        if case .serial(.mutex) = role { return false }
        return true
    }

    var isCurrent: Bool {
        switch role {
        case .direct: return true
        case .global: return false
        case .main, .mainAsync, .serial: return storage.isInside(queue)
        }
    }

    func invoke(_ execute: @escaping @Sendable () -> Void) {
        switch role {
        case .direct:
            execute()
        case .main, .serial(.conditionallyAsync):
            if storage.isInside(queue) { execute() } else { storage.scheduleNow(.block, on: queue, execute) }
        case .serial(.mutex):
            invokeSync(execute)
        case .mainAsync, .global, .serial:
            storage.scheduleNow(.block, on: queue, execute)
        }
    }

    func invokeAsync(_ execute: @escaping @Sendable () -> Void) {
        storage.scheduleNow(.block, on: queue, execute)
    }

    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) {
        invokeSync(execute)
    }

    /// Runs `execute` now, on the calling thread: inline when already inside the queue (a mutex-type queue stops the
    /// program with a message instead), otherwise after entering the queue, in place of waiting for it.
    func invokeSync<Return>(_ execute: () throws -> Return) rethrows -> Return {
        switch role {
        case .direct:
            return try execute()
        case .main, .mainAsync, .serial(.serialAsync), .serial(.conditionallyAsync):
            if storage.isInside(queue) { return try execute() }
            return try storage.runInline(in: queue, afterQueuedWork: true, execute)
        case .global:
            return try storage.runInline(in: queue, execute)  // concurrent: waits for nothing queued
        case .serial:
            return try storage.runInline(in: queue, afterQueuedWork: true, execute)
        }
    }

    /// After a delay, a timer with no leeway, as the protocol's default; with none, a hop (`invokeAsync`), as
    /// libdispatch's `dispatch_after` with its deadline passed is a `dispatch_async`.
    func invoke(after delay: Duration, _ execute: @escaping @Sendable () -> Void) {
        guard delay > .zero else { return invokeAsync(execute) }
        // The timer keeps itself until it fires (the handler lets go of it then), or until the coordinator drops it.
        let kept = LockedBox<(any Lifetime)?>(nil, observed: false)
        let timer = singleTimer(interval: delay, leeway: .zero) {
            execute()
            kept.withLock { $0 = nil }
        }
        kept.withLock { $0 = timer }
    }

    func singleTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void) -> any Lifetime {
        VirtualTimerLifetime(
            storage: storage,
            token: storage.scheduleTimer(on: queue, interval: interval, leeway: leeway, repeats: false, handler))
    }

    func periodicTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void)
        -> any Lifetime
    {
        if interval <= .zero {
            fatalError(
                "ExecTesting: periodicTimer on a TestCoordinator context needs a positive interval, got \(interval).")
        }
        return VirtualTimerLifetime(
            storage: storage,
            token: storage.scheduleTimer(on: queue, interval: interval, leeway: leeway, repeats: true, handler))
    }

    func timestamp() -> DispatchTime {
        DispatchTime(uptimeNanoseconds: storage.now)
    }

    var taskExecutor: any TaskExecutor { executor }

    func runIsolated(_ body: () -> Void) {
        storage.runIsolated(in: queue, body)
    }

    func invokeAsyncWithoutHopLatency(_ execute: @escaping @Sendable () -> Void) {
        storage.scheduleNow(.block, on: queue, withoutHopLatency: true, execute)
    }

    var unownedSerialExecutor: UnownedSerialExecutor {
        guard let serialExecutor else {
            fatalError(
                "ExecTesting: a TestCoordinator's \(queue.name == "global" ? "global" : "direct") context is "
                    + "concurrent and has no serial executor. Give the actor coordinator.serialQueue(named:) or "
                    + "coordinator.main instead.")
        }
        return serialExecutor.asUnownedSerialExecutor()
    }
}

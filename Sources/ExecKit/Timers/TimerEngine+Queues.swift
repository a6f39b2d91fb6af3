// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

@_spi(ExecTesting) import ExecMutex

// Which engine serves which queue: one per global queue and one for the main queue, made once and kept for the
// process; on a private queue, one per firing mode, kept as a queue-specific value of that queue (so it is released
// with the queue).

extension TimerEngine {
    /// The main queue's timers (`.main`, `.mainAsync`, `.mainOrdered`, and `.queue(.main, serialType)`), fired one at
    /// a time in deadline order.
    static let main = TimerEngine(sharedQueue: GlobalQueues.main, firing: .serial)
    static let userInteractive = TimerEngine(sharedQueue: GlobalQueues.userInteractive, firing: .concurrent)
    static let userInitiated = TimerEngine(sharedQueue: GlobalQueues.userInitiated, firing: .concurrent)
    /// Also `.direct`'s, whose timers fire on the default-QoS global queue.
    static let `default` = TimerEngine(sharedQueue: GlobalQueues.default, firing: .concurrent)
    static let utility = TimerEngine(sharedQueue: GlobalQueues.utility, firing: .concurrent)
    static let background = TimerEngine(sharedQueue: GlobalQueues.background, firing: .concurrent)

    /// The engines of queues used as serial contexts, and of queues used as concurrent ones: a queue used both ways
    /// has one of each, so each context keeps the firing its type promises, whichever was used first.
    private static let serialQueueEngines = QueueAttachment<TimerEngine>()
    private static let concurrentQueueEngines = QueueAttachment<TimerEngine>()
    /// Serializes the first attachment of an engine to a queue, so two threads cannot attach two.
    private static let attaching = PThreadMutex(type: .normal, observed: false)

    /// The engine for timers of `Exec.queue(queue, type)`, attached to `queue` on first use: ``main`` for the main
    /// queue used as a serial context; `nil` for a global queue, which cannot hold queue-specific values (its timers
    /// keep a Dispatch source each).
    ///
    /// - Parameter serial: Whether `queue` is used as a serial context: its timers fire one at a time, in deadline
    ///   order, and not after `cancel()` returned inside the queue.
    /// - Cost: a C thread-local read when this thread's last look-up was the same queue (``TimerEngineCache``), else
    ///   one queue-specific look-up once attached. The main queue, which never has an engine attached, is recognised
    ///   after that look-up fails, so a private queue's timers do not pay for the check.
    static func attached(to queue: DispatchQueue, serial: Bool) -> TimerEngine? {
        if let cached = TimerEngineCache.unretainedEngine(for: queue, serial: serial) {
            return cached.takeUnretainedValue()
        }
        let engines = serial ? serialQueueEngines : concurrentQueueEngines
        if let engine = engines.object(on: queue) {
            TimerEngineCache.store(engine, for: queue, serial: serial)
            return engine
        }
        if serial && queue.isMainQueue { return .main }
        if queue.isGlobalQueue { return nil }
        let engine = attaching.sync {
            if let engine = engines.object(on: queue) { return engine }
            // The queue owns the engine; the engine refers to the queue only through its source, which exists only
            // while timers are pending, so the queue is released once it has none.
            let engine = TimerEngine(sharedQueue: nil, firing: serial ? .serial : .concurrent)
            engines.attach(engine, to: queue)
            return engine
        }
        TimerEngineCache.store(engine, for: queue, serial: serial)
        return engine
    }
}

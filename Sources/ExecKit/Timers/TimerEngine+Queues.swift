// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// Which engine serves which queue: one per global queue and one for the main queue, made once and kept for the
// process; one per private queue, kept as a queue-specific value of that queue (so it is released with the queue).

extension TimerEngine {
    /// The main queue's timers (`.main`, `.mainAsync`, `.mainOrdered`), fired one at a time in deadline order.
    static let main = TimerEngine(
        queue: GlobalQueues.main, firing: .serial, recordsEntry: false, releasesSourceWhenIdle: false)
    static let userInteractive = TimerEngine(
        queue: GlobalQueues.userInteractive, firing: .concurrent, recordsEntry: false, releasesSourceWhenIdle: false)
    static let userInitiated = TimerEngine(
        queue: GlobalQueues.userInitiated, firing: .concurrent, recordsEntry: false, releasesSourceWhenIdle: false)
    /// Also `.direct`'s, whose timers fire on the default-QoS global queue.
    static let `default` = TimerEngine(
        queue: GlobalQueues.default, firing: .concurrent, recordsEntry: false, releasesSourceWhenIdle: false)
    static let utility = TimerEngine(
        queue: GlobalQueues.utility, firing: .concurrent, recordsEntry: false, releasesSourceWhenIdle: false)
    static let background = TimerEngine(
        queue: GlobalQueues.background, firing: .concurrent, recordsEntry: false, releasesSourceWhenIdle: false)

    private static let queueEngines = QueueAttachment<TimerEngine>()
    /// Serializes the first attachment of an engine to a queue, so two threads cannot attach two.
    private static let attaching = PThreadMutex()

    /// The engine of `queue`, a queue given to `Exec.queue(_:_:)`, attached on first use; `nil` for a global queue,
    /// which cannot hold queue-specific values (its timers keep a Dispatch source each).
    ///
    /// - Parameter serial: Whether `queue` is used as a serial context. Only the first call on a queue decides.
    /// - Cost: one queue-specific look-up once attached.
    static func attached(to queue: DispatchQueue, serial: Bool) -> TimerEngine? {
        if let engine = queueEngines.object(on: queue) { return engine }
        if queue.isGlobalQueue { return nil }
        return attaching.sync {
            if let engine = queueEngines.object(on: queue) { return engine }
            // The queue owns the engine; the engine refers to the queue only through its source, which exists only
            // while timers are pending, so the queue is released once it has none.
            let engine = TimerEngine(
                queue: queue, firing: serial ? .serial : .concurrent, recordsEntry: serial, releasesSourceWhenIdle: true
            )
            queueEngines.attach(engine, to: queue)
            return engine
        }
    }
}

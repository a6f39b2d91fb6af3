// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

@_spi(ExecTesting) import ExecMutex

/// The serial executor of one private `DispatchQueue`, kept by the queue itself as a queue-specific value, so that
/// every `Exec.queue(q, …)` hands out the same executor for as long as the queue lives.
///
/// Why the executor holds the queue unowned: the queue owns this object; a strong reference back would keep the queue
/// alive forever. The queue is alive whenever a job is submitted: an actor keeps its context (and so the queue), as
/// the documentation of `unownedSerialExecutor` requires. Task executors are different (a task keeps its executor,
/// not the context that made it), so a queue's task executor is made per access and holds the queue strongly; see
/// ``taskExecutor(for:)``.
final class QueueExecutors: Sendable {
    let serialExecutor: QueueSerialExecutor

    private init(queue: DispatchQueue) {
        serialExecutor = QueueSerialExecutor(queue: queue)
    }

    /// A task executor that runs jobs on `queue` and keeps the queue alive for as long as a task uses it. A `serial`
    /// queue's jobs run recorded as inside it (so re-entry is judged right inside them); a concurrent one's do not, as
    /// its blocks do not: `isCurrent` of a global queue given as `.queue` answers `false` there too.
    static func taskExecutor(for queue: DispatchQueue, serial: Bool) -> QueueTaskExecutor {
        serial ? QueueTaskExecutor(serial: queue) : QueueTaskExecutor(concurrent: queue)
    }

    private static let attachment = QueueAttachment<QueueExecutors>()
    /// Serializes the first creation, so a queue never gets two sets of executors.
    private static let creation = PThreadMutex(type: .normal, observed: false)

    /// The executors of `queue`, created on first use.
    static func of(_ queue: DispatchQueue) -> QueueExecutors {
        if let executors = attachment.object(on: queue) { return executors }
        return creation.sync {
            if let executors = attachment.object(on: queue) { return executors }
            let executors = QueueExecutors(queue: queue)
            attachment.attach(executors, to: queue)
            return executors
        }
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// The executors of one private `DispatchQueue`, kept by the queue itself as a queue-specific value, so that every
/// `Exec.queue(q, …)` hands out the same executor objects for as long as the queue lives.
///
/// Why unowned: the queue owns this object; a strong reference back would keep the queue alive forever. The queue is
/// alive whenever a job is submitted (an actor on the queue keeps its context, and so the queue).
final class QueueExecutors: Sendable {
    let taskExecutor: ContextTaskExecutor
    let serialExecutor: ContextSerialExecutor

    private init(queue: DispatchQueue) {
        // Jobs are recorded as inside the queue, like every ExecKit entry, so re-entry is judged right inside them.
        let submit: JobSubmission = { [unowned queue] run in queue.async { EnteredContexts.entering(queue, run) } }
        taskExecutor = ContextTaskExecutor(submit: submit)
        serialExecutor = ContextSerialExecutor(
            submit: submit,
            isCurrent: { [unowned queue] in Exec.isKnownInside(queue) },
            name: { [unowned queue] in "the DispatchQueue \"\(queue.label)\"" }
        )
    }

    private static let key = DispatchSpecificKey<QueueExecutors>()
    /// Serializes the first creation, so a queue never gets two sets of executors.
    private static let creation = PThreadMutex()

    /// The executors of `queue`, created on first use.
    static func of(_ queue: DispatchQueue) -> QueueExecutors {
        if let executors = queue.getSpecific(key: key) { return executors }
        return creation.sync {
            if let executors = queue.getSpecific(key: key) { return executors }
            let executors = QueueExecutors(queue: queue)
            queue.setSpecific(key: key, value: executors)
            return executors
        }
    }
}

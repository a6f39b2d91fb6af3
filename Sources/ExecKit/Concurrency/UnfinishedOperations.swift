// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// The tasks of a queue's unfinished operations, oldest first, each with its operation's number.
///
/// Operations finish in the order submitted (each starts only after the one before has finished), so what finishes is
/// always a prefix: removing it moves a start index, and the storage is compacted once half of it is behind that
/// index. No allocation per operation once the storage has grown to the queue's backlog.
struct UnfinishedOperations: Sendable {
    /// Entries before `start` have finished (their task is `nil`, released) and wait for the next compaction. Numbers
    /// are consecutive: operations are numbered as they are appended, and only a prefix is ever removed.
    private var entries: [(number: UInt64, task: (any QueuedOperationTask)?)] = []
    private var start = 0

    /// The task of the unfinished operation numbered `number`, or `nil` if it has finished (or was never submitted).
    /// Constant time: numbers are consecutive.
    func task(numbered number: UInt64) -> (any QueuedOperationTask)? {
        guard start < entries.count, number >= entries[start].number else { return nil }
        let offset = number - entries[start].number
        guard offset < UInt64(entries.count - start) else { return nil }
        return entries[start + Int(offset)].task
    }

    /// Every unfinished operation's task, oldest first: one allocation (`compactMap` would grow its array as it
    /// fills it, one allocation per doubling).
    var tasks: [any QueuedOperationTask] {
        var tasks: [any QueuedOperationTask] = []
        tasks.reserveCapacity(entries.count - start)
        for case let (_, task?) in entries[start...] { tasks.append(task) }
        return tasks
    }

    mutating func append(_ task: any QueuedOperationTask, number: UInt64) {
        entries.append((number, task))
    }

    /// Removes the operations numbered below `number`, which have all finished.
    mutating func removeAll(before number: UInt64) {
        while start < entries.count && entries[start].number < number {
            entries[start].task = nil
            start += 1
        }
        if start == entries.count {
            entries.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 16 && start * 2 > entries.count {
            entries.removeFirst(start)
            start = 0
        }
    }
}

/// An operation's task, whatever its result type: the next operation waits for it, and `cancelAll` cancels it.
protocol QueuedOperationTask: Sendable {
    /// Returns when the task has finished, however it finished.
    func awaitCompletion() async
    /// Cancels the task.
    func cancel()
}

extension Task: QueuedOperationTask {
    func awaitCompletion() async { _ = await result }
}

/// Waits for `task`'s value, cancelling it if the caller is cancelled meanwhile: `perform` of the task queues.
func awaitPassingCancellation<Success>(_ task: Task<Success, any Error>) async throws -> Success {
    try await withTaskCancellationHandler {
        try await task.value
    } onCancel: {
        task.cancel()
    }
}

/// Waits for `task`'s value, cancelling it if the caller is cancelled meanwhile: `perform` of the task queues.
func awaitPassingCancellation<Success>(_ task: Task<Success, Never>) async -> Success {
    await withTaskCancellationHandler {
        await task.value
    } onCancel: {
        task.cancel()
    }
}

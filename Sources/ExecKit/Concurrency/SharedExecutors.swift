// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// One task executor per shared queue, made once: `Exec.utility.taskExecutor` allocates nothing.
enum SharedExecutors {
    static let main = QueueTaskExecutor(queue: GlobalQueues.main, recordsEntry: true)
    static let mainOrdered = ContextTaskExecutor(isolatedTo: MainActor.sharedUnownedExecutor) { run in
        MainOrderedQueue.enqueue(run)
    }
    static let userInteractive = onQueue(GlobalQueues.userInteractive)
    static let userInitiated = onQueue(GlobalQueues.userInitiated)
    static let `default` = onQueue(GlobalQueues.default)
    static let utility = onQueue(GlobalQueues.utility)
    static let background = onQueue(GlobalQueues.background)

    private static func onQueue(_ queue: DispatchQueue) -> QueueTaskExecutor {
        QueueTaskExecutor(queue: queue, recordsEntry: false)
    }
}

/// A serial executor that a context object creates on first use and keeps for its whole life.
final class OwnedSerialExecutor: Sendable {
    private let executor = LockedBox<ContextSerialExecutor?>(nil)

    /// The executor, made by `make` on the first call.
    func get(_ make: () -> ContextSerialExecutor) -> UnownedSerialExecutor {
        executor.withLock { executor in
            if let executor { return executor.asUnownedSerialExecutor() }
            let made = make()
            executor = made
            return made.asUnownedSerialExecutor()
        }
    }
}

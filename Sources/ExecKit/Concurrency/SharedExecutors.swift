// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims
@_spi(ExecTesting) import ExecMutex

/// One task executor per shared queue, made once: `Exec.utility.taskExecutor` allocates nothing, and neither does a
/// job on it: each has a C function of its own below that runs a job on that very executor, so `dispatch_async_f`
/// carries the job itself with no box.
enum SharedExecutors {
    static let main = QueueTaskExecutor(serial: GlobalQueues.main, runsJobItself: runMainJob)
    static let mainOrdered = ContextTaskExecutor(isolatedTo: MainActor.sharedUnownedExecutor) { run in
        MainOrderedQueue.enqueue(run)
    }
    static let userInteractive = onQueue(GlobalQueues.userInteractive, runUserInteractiveJob)
    static let userInitiated = onQueue(GlobalQueues.userInitiated, runUserInitiatedJob)
    static let `default` = onQueue(GlobalQueues.default, runDefaultJob)
    static let utility = onQueue(GlobalQueues.utility, runUtilityJob)
    static let background = onQueue(GlobalQueues.background, runBackgroundJob)

    private static func onQueue(
        _ queue: DispatchQueue, _ runsJobItself: execkit_dispatch_function_t
    ) -> QueueTaskExecutor {
        QueueTaskExecutor(concurrent: queue, runsJobItself: runsJobItself)
    }
}

// The C functions libdispatch calls with a job's address, one per shared executor.
private func runMainJob(_ job: UnsafeMutableRawPointer?) { SharedExecutors.main.runJob(at: job) }
private func runUserInteractiveJob(_ job: UnsafeMutableRawPointer?) { SharedExecutors.userInteractive.runJob(at: job) }
private func runUserInitiatedJob(_ job: UnsafeMutableRawPointer?) { SharedExecutors.userInitiated.runJob(at: job) }
private func runDefaultJob(_ job: UnsafeMutableRawPointer?) { SharedExecutors.default.runJob(at: job) }
private func runUtilityJob(_ job: UnsafeMutableRawPointer?) { SharedExecutors.utility.runJob(at: job) }
private func runBackgroundJob(_ job: UnsafeMutableRawPointer?) { SharedExecutors.background.runJob(at: job) }

/// A serial executor that a context object creates on first use and keeps for its whole life.
final class OwnedSerialExecutor: Sendable {
    private let executor = LockedBox<ContextSerialExecutor?>(nil, observed: false)

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

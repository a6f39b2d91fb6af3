// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// The identity of one simulated queue of a ``TestCoordinator``: main, global, or a serial queue of a test's making.
///
/// Compared by identity: two serial queues with the same name are still two queues.
final class SimulatedQueue: Sendable {
    /// How the queue is named in ``TestCoordinator/currentQueueName`` and in pending-work descriptions.
    let name: String
    /// Whether entering the queue again from inside it is a programming error (a mutex-type queue).
    let isMutex: Bool
    /// Whether several threads may run in it at once for real (the global queue), so that waiting for it never
    /// deadlocks.
    let isConcurrent: Bool

    init(name: String, isMutex: Bool = false, isConcurrent: Bool = false) {
        self.name = name
        self.isMutex = isMutex
        self.isConcurrent = isConcurrent
    }
}

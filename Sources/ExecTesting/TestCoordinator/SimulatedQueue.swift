// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit

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
    /// The coordinator whose queue this is (its storage's identity).
    let owner: ObjectIdentifier
    /// Its number among its coordinator's queues, from 0: where the coordinator keeps its FIFO, found without hashing.
    let index: Int

    init(name: String, owner: CoordinatorStorage, isMutex: Bool = false, isConcurrent: Bool = false) {
        self.name = name
        self.owner = ObjectIdentifier(owner)
        self.isMutex = isMutex
        self.isConcurrent = isConcurrent
        index = owner.newQueueIndex()
    }

    /// The queue's key in ExecKit's record of entered contexts, which says which queues a thread is inside, simulated
    /// ones included.
    var key: EnteredContexts.Key { EnteredContexts.Key(simulated: self) }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTestSupport
import ExecTesting
import Testing

/// Issue #27 in virtual time: tasks started in a coordinator's serial context wait for each other through an actor on
/// the same context. A hop inside the actor between its check and its wait would let the signal slip by, and
/// `runUntilIdle()` would then return with a task still waiting.
// Guarantees: G-task-actor-never-hangs
@Suite struct CoordinatorActorWaitTests {
    /// The coordinator's serial contexts an actor can run on.
    static let contexts: [(name: String, make: @Sendable (TestCoordinator) -> Exec)] = [
        ("main", { $0.main }),
        ("mainAsync", { $0.mainAsync }),
        ("serialQueue", { $0.serialQueue(named: "q") }),
        ("mutexQueue", { $0.serialQueue(named: "lock", type: .mutex) }),
        ("serializedQueue", { $0.serialQueue(named: "s").serialized() }),
        ("serializedGlobal", { $0.global.serialized() }),
    ]

    @Test(arguments: 0..<contexts.count, ActorWaitShape.allCases)
    func tasksWaitingThroughAnActorOnTheirContextFinish(context index: Int, shape: ActorWaitShape) {
        for waiterFirst in [true, false] {
            let coordinator = TestCoordinator()
            let context = Self.contexts[index].make(coordinator)
            let finished = LockedBox(false)
            context.task {
                await shape.run(on: context, waiterFirst: waiterFirst)
                finished.withLock { $0 = true }
            }
            coordinator.runUntilIdle()
            #expect(
                finished.withLock { $0 },
                "\(shape) on \(Self.contexts[index].name), waiter first: \(waiterFirst): a task never finished")
            #expect(coordinator.isIdle)
        }
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// An actor on a store's queue: the README's "actor on the same queue as the callback API" pattern.
private actor LoggingStore {
    private let queue: Exec
    private let log: EventLog
    private var items: [String] = []

    nonisolated var unownedExecutor: UnownedSerialExecutor { queue.unownedSerialExecutor }

    init(queue: Exec, log: EventLog) {
        self.queue = queue
        self.log = log
    }

    /// Adds `item` and logs where it ran.
    func add(_ item: String, coordinator: TestCoordinator) {
        items.append(item)
        log.append("add \(item) in \(coordinator.currentQueueName ?? "no queue"), inside: \(queue.isCurrent)")
    }

    var count: Int { items.count }
}

/// Simulated serial queues (and the simulated main queue) are serial executors whose jobs run in virtual time.
@Suite struct SimulatedActorTests {
    /// The issue's test: an actor on `coordinator.serialQueue(named:)`, called from a coordinator task, its effects
    /// visible after `advance`; 20 runs, each giving the same trace.
    // Guarantees: G-virtual-actor-on-queue
    @Test(arguments: 1...20) func anActorOnASimulatedQueueRunsInsideAdvance(run: Int) {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let queue = coordinator.serialQueue(named: "store")
        let store = LoggingStore(queue: queue, log: log)
        queue.invoke { log.append("a block queued before the task") }
        coordinator.task {
            log.append("task in \(coordinator.currentQueueName ?? "no queue")")
            await store.add("a", coordinator: coordinator)
            try await coordinator.clock.sleep(for: .seconds(1))
            await store.add("b", coordinator: coordinator)
            log.append("task done at \(coordinator.seconds) with \(await store.count) items")
        }
        #expect(log.entries.isEmpty, "nothing runs before the test's call")
        coordinator.advance(by: .milliseconds(500))
        #expect(
            log.entries == [
                "a block queued before the task", "task in global", "add a in store, inside: true",
            ])
        coordinator.advance(by: .milliseconds(500))
        #expect(
            log.entries.suffix(2) == ["add b in store, inside: true", "task done at 1.0 with 2 items"])
        #expect(coordinator.isIdle)
    }

    // Guarantees: G-virtual-actor-on-queue
    @Test func anActorOnTheSimulatedMainQueueRunsThere() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let store = LoggingStore(queue: coordinator.main, log: log)
        coordinator.task { await store.add("x", coordinator: coordinator) }
        coordinator.runUntilIdle()
        #expect(log.entries == ["add x in main, inside: true"])
    }

    // Guarantees: G-virtual-actor-on-queue
    @Test func serializingASimulatedQueueKeepsItsExecutor() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let store = LoggingStore(queue: coordinator.serialQueue(named: "s").serialized(), log: log)
        coordinator.task { await store.add("y", coordinator: coordinator) }
        coordinator.runUntilIdle()
        #expect(log.entries == ["add y in s, inside: true"])
    }

    // Guarantees: G-virtual-actor-on-queue
    @Test func anActorJobTakesItsTurnWithTheQueuesBlocks() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let queue = coordinator.serialQueue(named: "q")
        let store = LoggingStore(queue: queue, log: log)
        coordinator.task {
            queue.invoke { log.append("block queued by the task before its call") }
            await store.add("z", coordinator: coordinator)
            queue.invoke { log.append("block queued after the call returned") }
        }
        coordinator.runUntilIdle()
        #expect(
            log.entries == [
                "block queued by the task before its call", "add z in q, inside: true",
                "block queued after the call returned",
            ])
    }
}

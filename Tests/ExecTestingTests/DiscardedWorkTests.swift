// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTestSupport
import ExecTesting
import Testing

/// Issue #28, item 1: work that `discardPendingWork()` (or the coordinator's deinit) drops still lets every task
/// finish: a task's or an actor's job goes to a real thread instead, and a `perform` whose block was dropped resumes
/// its caller. Each check is bounded: a task that never finishes fails the test instead of hanging it.
@Suite struct DiscardedWorkTests {
    /// How the test lets go of the coordinator's pending work.
    enum Ending: CaseIterable, Sendable {
        case discardPendingWork, releaseTheCoordinator
    }

    /// The coordinator's contexts that run tasks, and the contexts derived from them.
    static let contexts: [(name: String, make: @Sendable (TestCoordinator) -> Exec)] = [
        ("global", { $0.global }),
        ("main", { $0.main }),
        ("serialQueue", { $0.serialQueue(named: "q") }),
        ("mutexQueue", { $0.serialQueue(named: "lock", type: .mutex) }),
        ("globalSerialized", { $0.global.serialized() }),
        ("directSerialized", { $0.direct.serialized() }),
        ("serialQueueSerialized", { $0.serialQueue(named: "s").serialized() }),
        ("mainAlwaysAsync", { $0.main.alwaysAsync() }),
        ("mutexQueueAlwaysAsync", { $0.serialQueue(named: "lock2", type: .mutex).alwaysAsync() }),
        ("mainRelativeAsync", { $0.main.relativeAsync() }),
    ]

    // Guarantees: G-virtual-discard-no-task-unfinished, G-virtual-discard-releases
    @Test(arguments: 0..<contexts.count, Ending.allCases)
    func aTaskWhoseJobWasDroppedFinishes(context index: Int, ending: Ending) async {
        var coordinator: TestCoordinator? = TestCoordinator()
        let context = Self.contexts[index].make(coordinator!)
        weak let weakCapture = await finishedTaskCapture(
            on: context,
            before: {
                switch ending {
                case .discardPendingWork: coordinator?.discardPendingWork()
                case .releaseTheCoordinator: coordinator = nil
                }
            })
        #expect(becomesNil { weakCapture }, "what the task captured was not released")
        withExtendedLifetime(coordinator) {}
    }

    /// Starts a task on `context` that captures an object, lets `end` drop its pending first job, and checks the task
    /// still finishes with its value; returns the captured object, held weakly by the caller.
    private func finishedTaskCapture(on context: Exec, before end: () -> Void) async -> Token {
        let capture = Token()
        let task = context.task { withExtendedLifetime(capture) { 42 } }
        end()
        let value = LockedBox<Int?>(nil)
        let finished = await finishes(within: 30) {
            let result = await task.value
            value.withLock { $0 = result }
        }
        #expect(finished, "the task never finished")
        #expect(value.withLock { $0 } == 42)
        return capture
    }

    /// A task waiting on an actor of a simulated queue whose job was dropped: the actor's job runs elsewhere, one at a
    /// time, and the task finishes.
    // Guarantees: G-virtual-discard-no-task-unfinished
    @Test(arguments: Ending.allCases)
    func aTaskWaitingOnAnActorWhoseJobWasDroppedFinishes(ending: Ending) async {
        var coordinator: TestCoordinator? = TestCoordinator()
        let store = DiscardStore(context: coordinator!.serialQueue(named: "store"))
        let task = coordinator!.task { await store.add(2) + store.add(3) }
        coordinator!.runUntilIdle()  // nothing: the task's first job is due, and it then hops to the actor
        switch ending {
        case .discardPendingWork: coordinator?.discardPendingWork()
        case .releaseTheCoordinator: coordinator = nil
        }
        let value = LockedBox<Int?>(nil)
        let finished = await finishes(within: 30) {
            let sum = await task.value; value.withLock { $0 = sum }
        }
        #expect(finished, "the task never finished")
        #expect(value.withLock { $0 } == 7)
        withExtendedLifetime(coordinator) {}
    }

    /// A `perform` whose block was dropped resumes its caller, with the block's value: the block runs elsewhere.
    // Guarantees: G-virtual-discard-no-task-unfinished, G-perform-dropped-block-runs
    @Test(arguments: Ending.allCases)
    func aPerformWhoseBlockWasDroppedResumesItsCaller(ending: Ending) async {
        var coordinator: TestCoordinator? = TestCoordinator()
        let context = coordinator!.serialQueue(named: "q")
        let caller = Task { await context.perform { 42 } }
        // Polled without blocking: the task that calls perform needs a thread of the cooperative pool.
        for _ in 0..<10_000 where coordinator!.isIdle { try? await Task.sleep(for: .milliseconds(1)) }
        #expect(coordinator?.isIdle == false, "the perform's block is pending")
        switch ending {
        case .discardPendingWork: coordinator?.discardPendingWork()
        case .releaseTheCoordinator: coordinator = nil
        }
        let value = LockedBox<Int?>(nil)
        let finished = await finishes(within: 30) {
            let result = await caller.value; value.withLock { $0 = result }
        }
        #expect(finished, "the caller of perform never resumed")
        #expect(value.withLock { $0 } == 42)
        withExtendedLifetime(coordinator) {}
    }

    /// Operations of a SerialTaskQueue on a coordinator context all finish, in order, after their first jobs were
    /// dropped. Those jobs run on real threads; the tasks' later jobs go to the coordinator again when it still exists
    /// (as a sleep discarded resumes there), so the test keeps running it.
    // Guarantees: G-virtual-discard-no-task-unfinished
    @Test(arguments: Ending.allCases)
    func serialTaskQueueOperationsAllFinishAfterTheirWorkWasDropped(ending: Ending) async {
        var coordinator: TestCoordinator? = TestCoordinator()
        let queue = SerialTaskQueue(context: coordinator!.global)
        let log = LockedBox<[Int]>([])
        let tasks = (0..<5).map { index in queue.enqueue { log.withLock { $0.append(index) } } }
        switch ending {
        case .discardPendingWork: coordinator?.discardPendingWork()
        case .releaseTheCoordinator: coordinator = nil
        }
        let done = LockedBox(false)
        let waiter = Task {
            await finishes(within: 30) {
                for task in tasks { await task.value }
                done.withLock { $0 = true }
            }
        }
        let remaining = coordinator
        for _ in 0..<30_000 where !done.withLock({ $0 }) {
            remaining?.runUntilIdle()
            try? await Task.sleep(for: .milliseconds(1))
        }
        #expect(await waiter.value, "an operation never finished")
        #expect(log.withLock { $0 } == Array(0..<5))
    }
}

/// Discarded work is released in the order it would have run, as CwlUtils' coordinator released it (CwlSignal's
/// `testWindowWindows` depends on it: the timer that closes a window must let go before its source).
@Suite struct DiscardOrderTests {
    // Guarantees: G-virtual-discard-order
    @Test func discardedWorkIsReleasedInTheOrderItWouldHaveRun() {
        let coordinator = TestCoordinator()
        let released = LockedBox<[String]>([])
        var lifetimes: [any Lifetime] = []
        for (name, seconds) in [("c", 3), ("a", 1), ("b", 2)] {
            let witness = ReleaseWitness(name: name, log: released)
            lifetimes.append(
                coordinator.global.singleTimer(interval: .seconds(seconds)) { withExtendedLifetime(witness) {} })
        }
        let block = ReleaseWitness(name: "block", log: released)
        coordinator.main.invokeAsync { withExtendedLifetime(block) {} }
        _ = consume block
        coordinator.discardPendingWork()
        #expect(released.withLock { $0 } == ["block", "a", "b", "c"])
        withExtendedLifetime(lifetimes) {}
    }
}

/// Logs its name when released.
private final class ReleaseWitness: Sendable {
    let name: String
    let log: LockedBox<[String]>

    init(name: String, log: LockedBox<[String]>) {
        self.name = name
        self.log = log
    }

    deinit { log.withLock { $0.append(name) } }
}

/// An actor on a coordinator's queue.
private actor DiscardStore {
    let context: Exec
    nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedSerialExecutor }
    private var total = 0

    init(context: Exec) { self.context = context }

    func add(_ value: Int) -> Int {
        total += value
        return total
    }
}

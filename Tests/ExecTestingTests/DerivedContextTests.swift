// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// Every context derived from a coordinator's (each row of the `serialized()`, `alwaysAsync()` and
/// `inlineWhenCurrent()` tables that yields a new context), checked against every requirement that has a default: a
/// derived context stays in virtual time.
enum DerivedContext: String, CaseIterable, Sendable {
    case directSerialized, globalSerialized, mainAlwaysAsync, directAlwaysAsync, mutexAlwaysAsync
    case conditionalAlwaysAsync, serialInlineWhenCurrent, mutexInlineWhenCurrent, globalInlineWhenCurrent

    func make(_ coordinator: TestCoordinator) -> Exec {
        switch self {
        case .directSerialized: return coordinator.direct.serialized()
        case .globalSerialized: return coordinator.global.serialized()
        case .mainAlwaysAsync: return coordinator.main.alwaysAsync()
        case .directAlwaysAsync: return coordinator.direct.alwaysAsync()
        case .mutexAlwaysAsync: return coordinator.serialQueue(named: "m", type: .mutex).alwaysAsync()
        case .conditionalAlwaysAsync:
            return coordinator.serialQueue(named: "c", type: .conditionallyAsync(true)).alwaysAsync()
        case .serialInlineWhenCurrent: return coordinator.serialQueue(named: "s").inlineWhenCurrent()
        case .mutexInlineWhenCurrent: return coordinator.serialQueue(named: "m", type: .mutex).inlineWhenCurrent()
        case .globalInlineWhenCurrent: return coordinator.global.inlineWhenCurrent()
        }
    }
}

@Suite struct DerivedContextTests {
    // Guarantees: G-virtual-timer-deadlines, G-custom-derived-keeps-clock
    @Test(arguments: DerivedContext.allCases) func timersFireAtTheirVirtualDeadlines(_ derived: DerivedContext) {
        let coordinator = TestCoordinator()
        let context = derived.make(coordinator)
        let log = EventLog()
        let single = context.singleTimer(interval: .seconds(1)) { log.append("single at \(coordinator.seconds)") }
        let cancelled = context.singleTimer(interval: .milliseconds(500)) { log.append("cancelled timer ran") }
        cancelled.cancel()
        let ticks = Shared(0)
        let periodic = context.periodicTimer(interval: .milliseconds(100)) { ticks.update { $0 += 1 } }
        context.invoke(after: .seconds(2)) { log.append("after at \(coordinator.seconds)") }
        coordinator.advance(by: .milliseconds(999))
        #expect(log.entries.isEmpty, "\(derived): a timer fired early or a cancelled one fired")
        coordinator.advance(by: .milliseconds(1))
        #expect(ticks.value == 10, "\(derived): 100 ms ticks in 1 s of virtual time")
        coordinator.advance(by: .seconds(1))
        periodic.cancel()
        #expect(log.entries == ["single at 1.0", "after at 2.0"], "\(derived)")
        #expect(context.timestamp() == coordinator.now, "\(derived): timestamp() is virtual time")
        #expect(coordinator.isIdle, "\(derived): cancelled timers leave nothing behind")
        withExtendedLifetime(single) {}
    }

    /// Issue #28, item 2: `discardPendingWork()` releases a derived context's timer handlers (and what they captured)
    /// as it does the coordinator's own, though the test still holds the lifetimes.
    // Guarantees: G-virtual-discard-releases
    @Test(arguments: DerivedContext.allCases) func discardingReleasesTimerHandlers(_ derived: DerivedContext) {
        let coordinator = TestCoordinator()
        let context = derived.make(coordinator)
        weak var periodicCapture: Token?
        weak var singleCapture: Token?
        var lifetimes: [any Lifetime] = []
        do {
            let periodic = Token()
            let single = Token()
            periodicCapture = periodic
            singleCapture = single
            lifetimes.append(context.periodicTimer(interval: .seconds(1)) { withExtendedLifetime(periodic) {} })
            lifetimes.append(context.singleTimer(interval: .seconds(5)) { withExtendedLifetime(single) {} })
        }
        coordinator.advance(by: .seconds(2))
        coordinator.discardPendingWork()
        #expect(periodicCapture == nil, "\(derived): a periodic handler outlived discardPendingWork()")
        #expect(singleCapture == nil, "\(derived): a pending one-shot handler outlived discardPendingWork()")
        withExtendedLifetime(lifetimes) {}
    }

    /// Issue #28, item 3: with a hop latency, a derived context's timers still fire at their deadlines: the hop from
    /// the wrapped context's timer into the derived context takes no virtual time.
    // Guarantees: G-virtual-hop-latency, G-custom-derived-keeps-clock
    @Test(arguments: DerivedContext.allCases) func timersKeepTheirDeadlinesWithAHopLatency(_ derived: DerivedContext) {
        let coordinator = TestCoordinator(hopLatency: .nanoseconds(1))
        let context = derived.make(coordinator)
        let fired = Shared<[Duration]>([])
        let single = context.singleTimer(interval: .seconds(1)) { fired.update { $0.append(coordinator.elapsed) } }
        let periodic = context.periodicTimer(interval: .seconds(2)) { fired.update { $0.append(coordinator.elapsed) } }
        coordinator.advance(by: .seconds(5))
        periodic.cancel()
        #expect(fired.value == [.seconds(1), .seconds(2), .seconds(4)], "\(derived)")
        withExtendedLifetime(single) {}
    }

    // Guarantees: G-custom-derived-keeps-clock
    @Test(arguments: DerivedContext.allCases) func asynchronousWorkAndTasksRunInsideTheCoordinator(
        _ derived: DerivedContext
    ) async throws {
        let coordinator = TestCoordinator()
        let context = derived.make(coordinator)
        let ran = Shared(false)
        context.invokeAsync { ran.value = true }
        let task = context.task { 42 }
        #expect(!ran.value, "\(derived): invokeAsync ran before the test's call")
        coordinator.runUntilIdle()
        #expect(ran.value, "\(derived)")
        #expect(await task.value == 42)
    }

    @Test(arguments: DerivedContext.allCases) func invokeSyncFromTheTestRunsWithoutWaitingForever(
        _ derived: DerivedContext
    ) {
        let coordinator = TestCoordinator()
        let context = derived.make(coordinator)
        // On a thread of its own, so that a wait that never ends fails this test instead of hanging the run.
        let result = Shared<Int?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            result.value = context.invokeSync { 7 }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success, "\(derived): invokeSync waited for the coordinator")
        #expect(result.value == 7, "\(derived)")
    }

    /// On a coordinator, "inside" is the simulated queue's: from the test, a block is pending work; from one of the
    /// queue's blocks, it runs inline, before the blocks queued earlier.
    // Guarantees: G-inline-when-current, G-inline-when-current-order
    @Test func inlineWhenCurrentRunsInlineInsideASimulatedQueueAndQueuesFromOutside() {
        let coordinator = TestCoordinator()
        let queue = coordinator.serialQueue(named: "store")
        let context = queue.inlineWhenCurrent()
        let log = EventLog()
        context.invoke { log.append("from the test") }
        #expect(log.entries.isEmpty)
        #expect(coordinator.pendingWork.map(\.queueName) == ["store"])
        queue.invoke {
            queue.invoke { log.append("queued inside") }
            context.invoke { log.append("inline") }
            log.append("after the inline call")
        }
        coordinator.runUntilIdle()
        #expect(log.entries == ["from the test", "inline", "after the inline call", "queued inside"])
    }

    @Test func aSerializedCoordinatorContextDeliversTimerHandlersOneAtATime() {
        let coordinator = TestCoordinator()
        let context = coordinator.global.serialized()
        let log = EventLog()
        let timers = (1...3).map { index in
            context.singleTimer(interval: .seconds(1)) {
                log.append("start \(index)")
                context.invokeAsync { log.append("follow-up of \(index)") }
                log.append("end \(index)")
            }
        }
        coordinator.advance(by: .seconds(1))
        #expect(
            log.entries == [
                "start 1", "end 1", "start 2", "end 2", "start 3", "end 3",
                "follow-up of 1", "follow-up of 2", "follow-up of 3",
            ])
        withExtendedLifetime(timers) {}
    }
}

@Suite struct CoordinatorRelativeAsyncTests {
    // Guarantees: G-virtual-relativeasync
    @Test func workMovedAwayFromACoordinatorContextStaysOnTheCoordinatorsGlobalQueue() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let contexts =
            [
                coordinator.main, coordinator.mainAsync, coordinator.direct, coordinator.global,
                coordinator.serialQueue(named: "s"),
            ] + DerivedContext.allCases.map { $0.make(coordinator) }
        for context in contexts {
            context.relativeAsync(qos: .utility).invokeAsync {
                log.append(coordinator.currentQueueName ?? "outside the coordinator")
            }
        }
        #expect(log.entries.isEmpty)
        coordinator.runUntilIdle()
        #expect(log.entries == Array(repeating: "global", count: contexts.count))
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// What a `DebugContextCoordinator` suite (CwlUtils, CwlSignal) uses: sync after the queued blocks, stopping from a
/// handler, discarding pending work, and a latency per asynchronous hop.
@Suite struct CwlUtilsCoordinatorTests {
    // Guarantees: G-virtual-invokesync-waits
    @Test func invokeSyncOntoASerialQueueRunsAfterTheBlocksAlreadyQueuedThere() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        for queue in [
            coordinator.serialQueue(named: "q"), coordinator.main, coordinator.serialQueue(named: "m", type: .mutex),
        ] {
            queue.invokeAsync { log.append("A") }
            queue.invokeSync { log.append("B") }
        }
        #expect(log.entries == ["A", "B", "A", "B", "A", "B"])
        #expect(coordinator.isIdle)
    }

    // Guarantees: G-virtual-invokesync-waits
    @Test func workQueuedBeforeASyncRunsOutsideTheCallersQueuesAndLaterWorkAfterIt() {
        let coordinator = TestCoordinator()
        let queue = coordinator.serialQueue(named: "q")
        let log = EventLog()
        @Sendable func note(_ what: String) {
            log.append("\(what) in \(coordinator.currentQueueName ?? "none"), main: \(coordinator.main.isCurrent)")
        }
        queue.invokeAsync { note("queued before") }
        coordinator.main.invoke {
            queue.invokeSync {
                note("sync block")
                queue.invokeAsync { note("queued by the sync block") }
            }
        }
        coordinator.runUntilIdle()
        #expect(
            log.entries == [
                "queued before in q, main: false", "sync block in q, main: true",
                "queued by the sync block in q, main: false",
            ])
    }

    // Guarantees: G-virtual-invokesync-waits
    @Test func aSerializedContextsEarlierBlocksRunOutsideTheWaitingCallersQueues() {
        let coordinator = TestCoordinator()
        let serialized = coordinator.global.serialized()
        let log = EventLog()
        coordinator.main.invoke {
            serialized.invoke { log.append("queued block, main: \(coordinator.main.isCurrent)") }
            serialized.invokeSync { log.append("sync block, main: \(coordinator.main.isCurrent)") }
        }
        coordinator.runUntilIdle()
        #expect(log.entries == ["queued block, main: false", "sync block, main: true"])
    }

    // Guarantees: G-virtual-invokesync-waits
    @Test func invokeSyncOntoTheGlobalQueueWaitsForNothingQueued() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        coordinator.global.invokeAsync { log.append("A") }
        coordinator.global.invokeSync { log.append("B") }  // a concurrent queue does not wait for earlier blocks
        coordinator.runUntilIdle()
        #expect(log.entries == ["B", "A"])
    }

    // Guarantees: G-virtual-stop
    @Test func stopFromAHandlerEndsTheAdvanceAfterThatHandler() {
        let coordinator = TestCoordinator()
        let ticks = Shared(0)
        let timer = coordinator.main.periodicTimer(interval: .seconds(1)) {
            ticks.update { $0 += 1 }
            if ticks.value == 3 { coordinator.stop() }
        }
        coordinator.advance(by: .seconds(10))
        #expect(ticks.value == 3)
        #expect(coordinator.elapsed == .seconds(3), "time stays at the stopping handler's deadline")
        coordinator.advance(by: .seconds(2))
        #expect(ticks.value == 5, "the next call goes on")
        coordinator.stop()  // outside any run: nothing happens
        coordinator.advance(by: .seconds(1))
        #expect(ticks.value == 6)
        timer.cancel()
    }

    // Guarantees: G-virtual-discard-releases, G-virtual-discard-no-task-unfinished
    @Test func discardingPendingWorkReleasesItAndCancelsSleeps() async {
        let coordinator = TestCoordinator()
        weak var weakToken: Token?
        var timer: (any Lifetime)?
        do {
            let token = Token()
            weakToken = token
            timer = coordinator.global.periodicTimer(interval: .seconds(1)) { withExtendedLifetime(token) {} }
            coordinator.main.invokeAsync { withExtendedLifetime(token) {} }
        }
        let sleep = coordinator.task { try await coordinator.clock.sleep(for: .seconds(60)) }
        coordinator.runUntilIdle()  // the task starts and sleeps
        #expect(weakToken != nil)
        coordinator.discardPendingWork()
        #expect(weakToken == nil, "discarded work is released at once")
        coordinator.runUntilIdle()  // the sleeping task's CancellationError
        await #expect(throws: CancellationError.self) { try await sleep.value }
        #expect(coordinator.isIdle)
        withExtendedLifetime(timer) {}
    }

    // Guarantees: G-virtual-discard-no-task-unfinished
    @Test func aTaskAsleepWhenTheCoordinatorGoesAwayEndsWithCancellationError() async {
        var coordinator: TestCoordinator? = TestCoordinator()
        let clock = coordinator!.clock  // the task holds the clock, not the coordinator
        let task = coordinator!.task { try await clock.sleep(for: .seconds(60)) }
        coordinator!.runUntilIdle()  // the task starts and sleeps
        weak let gone = coordinator
        coordinator = nil
        #expect(gone == nil)
        // Polled with a generous real-time bound, so that a task that never ends fails the test instead of hanging it.
        let ending = Shared<String?>(nil)
        Task.detached {
            do {
                try await task.value
                ending.value = "finished"
            } catch {
                ending.value = "\(type(of: error))"
            }
        }
        for _ in 0..<1_000 where ending.value == nil { try? await Task.sleep(for: .milliseconds(10)) }
        let outcome = ending.value
        #expect(outcome == "CancellationError", "the sleeping task never ended")
    }

    // Guarantees: G-virtual-hop-latency
    @Test func eachAsynchronousHopTakesTheGivenLatency() {
        let coordinator = TestCoordinator(hopLatency: .nanoseconds(1))
        let log = EventLog()
        coordinator.main.invokeAsync {
            log.append("first hop at \(coordinator.elapsedNanoseconds) ns")
            coordinator.global.invoke {
                log.append("second hop at \(coordinator.elapsedNanoseconds) ns")
            }
        }
        coordinator.runUntilIdle()
        #expect(log.entries.isEmpty, "a hop is not due at once")
        coordinator.advance(by: .nanoseconds(2))
        #expect(log.entries == ["first hop at 1 ns", "second hop at 2 ns"])
    }
}

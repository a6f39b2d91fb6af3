// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// The coordinator knows which simulated queue runs: `main.invoke` is immediate exactly inside main, `isCurrent` and
/// `currentQueueName` answer for each context, `invokeSync` runs inline without deadlocking.
@Suite struct SimulatedQueueTests {
    // Guarantees: G-virtual-main-inline-inside, G-virtual-mainasync-fifo
    @Test func mainInvokeIsImmediateExactlyInsideTheSimulatedMainQueue() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        coordinator.main.invoke { log.append("from the test: queued") }
        #expect(log.entries.isEmpty)
        #expect(coordinator.main.type == .conditionallyAsync(true))
        coordinator.mainAsync.invoke {
            #expect(coordinator.main.type == .conditionallyAsync(false))
            coordinator.main.invoke { log.append("inside main: immediate") }
            coordinator.mainAsync.invoke { log.append("mainAsync: queued") }
            log.append("after")
        }
        coordinator.global.invoke {
            coordinator.main.invoke { log.append("from global: queued") }
        }
        coordinator.runUntilIdle()
        #expect(
            log.entries == [
                "from the test: queued", "inside main: immediate", "after", "mainAsync: queued", "from global: queued",
            ])
    }

    // Guarantees: G-virtual-current-queue-name, G-virtual-direct-async-global, G-virtual-global-queued, G-virtual-serial-queue-types, G-virtual-main-inline-inside
    @Test func eachContextAnswersIsCurrentAndTheQueueIsNamed() {
        let coordinator = TestCoordinator()
        let serial = coordinator.serialQueue(named: "db")
        let other = coordinator.serialQueue(named: "db")  // same name, another queue
        let seen = EventLog()
        #expect(coordinator.currentQueueName == nil)
        #expect(!coordinator.main.isCurrent)
        #expect(coordinator.direct.isCurrent)
        serial.invoke {
            seen.append("\(coordinator.currentQueueName ?? "-") \(serial.isCurrent) \(other.isCurrent)")
            seen.append("main \(coordinator.main.isCurrent) \(coordinator.mainAsync.isCurrent)")
        }
        coordinator.main.invoke { seen.append("\(coordinator.currentQueueName ?? "-") \(coordinator.main.isCurrent)") }
        coordinator.global.invoke {
            seen.append("\(coordinator.currentQueueName ?? "-") \(coordinator.global.isCurrent) \(serial.isCurrent)")
        }
        coordinator.direct.invokeAsync { seen.append("direct async on \(coordinator.currentQueueName ?? "-")") }
        coordinator.runUntilIdle()
        #expect(
            seen.entries == [
                "db true false", "main false false", "main true", "global false false", "direct async on global",
            ])
    }

    // Guarantees: G-virtual-main-inline-inside
    @Test func anotherThreadIsNeverInsideASimulatedQueue() async {
        let coordinator = TestCoordinator()
        let answers = Shared<[Bool]>([])
        coordinator.main.invoke {
            let fromAnotherThread = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                answers.update { $0.append(coordinator.main.isCurrent) }
                fromAnotherThread.signal()
            }
            fromAnotherThread.wait()
            answers.update { $0.append(coordinator.main.isCurrent) }
        }
        coordinator.runUntilIdle()
        #expect(answers.value == [false, true])
    }

    // Guarantees: G-virtual-invokesync-inline, G-virtual-current-queue-name
    @Test func invokeSyncOntoAnotherQueueRunsInlineAndReturnsItsValue() throws {
        let coordinator = TestCoordinator()
        let database = coordinator.serialQueue(named: "database", type: .mutex)
        let cache = coordinator.serialQueue(named: "cache")
        let path = Shared<[String]>([])
        coordinator.main.invoke {
            let value = database.invokeSync {
                path.update { $0.append(coordinator.currentQueueName ?? "-") }
                return cache.invokeSync {
                    path.update { $0.append(coordinator.currentQueueName ?? "-") }
                    // Still inside both: the serial queue's invokeSync from inside runs inline, main too.
                    path.update { $0.append("\(database.isCurrent) \(coordinator.main.isCurrent)") }
                    return cache.invokeSync { 42 }
                }
            }
            path.update { $0.append("\(value) back on \(coordinator.currentQueueName ?? "-")") }
        }
        coordinator.runUntilIdle()
        #expect(path.value == ["database", "cache", "true true", "42 back on main"])
        // From the test itself, outside any queue, too; and errors are rethrown.
        #expect(throws: TestFailure.self) { try database.invokeSync { throw TestFailure() } }
        #expect(coordinator.currentQueueName == nil)
    }

    // Guarantees: G-virtual-serial-queue-types
    @Test func aMutexQueueRunsInvokeAtOnceAndItsAsyncWorkLater() {
        let coordinator = TestCoordinator()
        let lock = coordinator.serialQueue(named: "lock", type: .mutex)
        let log = EventLog()
        #expect(lock.type == .mutex)
        lock.invoke { log.append("now on \(coordinator.currentQueueName ?? "-")") }
        lock.invokeAsync { log.append("later") }
        #expect(log.entries == ["now on lock"])
        coordinator.runUntilIdle()
        #expect(log.entries == ["now on lock", "later"])
    }

    // Guarantees: G-virtual-serial-queue-types, G-virtual-one-at-a-time
    @Test func serialQueuesRunTheirBlocksInFIFOOrderInterleavedByTime() {
        let coordinator = TestCoordinator()
        let a = coordinator.serialQueue(named: "a")
        let b = coordinator.serialQueue(named: "b", type: .conditionallyAsync(true))
        let log = EventLog()
        for index in 0..<3 {
            a.invoke { log.append("a\(index)") }
            b.invoke { log.append("b\(index)") }
        }
        b.invokeAsync { b.invoke { log.append("b inline") } }
        coordinator.runUntilIdle()
        #expect(log.entries == ["a0", "b0", "a1", "b1", "a2", "b2", "b inline"])
    }

    // Guarantees: G-virtual-timer-deadlines
    @Test func timestampIsVirtualTime() {
        let coordinator = TestCoordinator()
        coordinator.advance(by: .milliseconds(1_500))
        for context in [coordinator.direct, coordinator.main, coordinator.global, coordinator.serialQueue(named: "s")] {
            #expect(context.timestamp() == coordinator.now)
            #expect(context.timestamp() == DispatchTime(uptimeNanoseconds: 125 + 1_500_000_000))
        }
    }
}

struct TestFailure: Error {}

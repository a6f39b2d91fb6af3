// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTesting
import Testing

/// Deadlocks under exploration (issue #31): an `invokeSync` cycle that only some orderings close fails its run with
/// who waits for whom, instead of stopping the test program, and the run goes no further.
@Suite struct ExplorationDeadlockTests {
    /// A cache and a store on queues of their own. The store tells the cache about each save synchronously, and the
    /// cache reads the store synchronously on refresh. (Wrong: each may wait for the other.)
    final class SyncedCache: Sendable {
        let cacheQueue: Exec
        let storeQueue: Exec
        let refreshes = Shared(0)
        let saves = Shared(0)
        /// `true` for the fix: the store tells the cache asynchronously.
        let notifiesAsynchronously: Bool

        init(_ coordinator: TestCoordinator, notifiesAsynchronously: Bool = false) {
            cacheQueue = coordinator.serialQueue(named: "cache")
            storeQueue = coordinator.serialQueue(named: "store")
            self.notifiesAsynchronously = notifiesAsynchronously
        }

        func refresh() {
            cacheQueue.invoke {
                let saved = self.storeQueue.invokeSync { self.saves.value }
                self.refreshes.update { $0 += saved }
            }
        }

        func save() {
            storeQueue.invoke {
                self.saves.update { $0 += 1 }
                let invalidate: @Sendable () -> Void = { self.refreshes.update { $0 = 0 } }
                if self.notifiesAsynchronously {
                    self.cacheQueue.invoke(invalidate)
                } else {
                    self.cacheQueue.invokeSync(invalidate)
                }
            }
        }
    }

    /// A save, then a refresh that a third queue starts: in the fixed order the save finishes before the refresh's
    /// block is queued, so the cycle never closes.
    static func saveThenRefresh(_ cache: SyncedCache, _ coordinator: TestCoordinator) {
        cache.save()
        coordinator.serialQueue(named: "ui").invoke { cache.refresh() }
        coordinator.runUntilIdle()
    }

    // Guarantees: G-explore-deadlock
    @Test func anInvokeSyncCycleFailsTheRunAndSaysWhoWaitsForWhom() throws {
        let fixed = TestCoordinator()
        Self.saveThenRefresh(SyncedCache(fixed), fixed)  // the fixed order passes: no cycle

        let report = TestCoordinator.explore(.exhaustive, iterations: 100) { coordinator in
            Self.saveThenRefresh(SyncedCache(coordinator), coordinator)
        } reportFailure: { _ in
        }
        let failure = try #require(report.failure)
        #expect(failure.error.hasPrefix("deadlock: a caller inside \""), "\(failure.error)")
        #expect(failure.error.contains("waits in invokeSync for work on \""))
        #expect(failure.error.contains("for real, each would wait for the other"))
        #expect(failure.error.contains("\"cache\"") && failure.error.contains("\"store\""))
        #expect(failure.error.contains("the work that waited: block on \""), "the work is named")
        #expect(failure.error.contains("ExplorationDeadlockTests.swift"), "with the line that scheduled it")
        #expect(failure.departures.count == 1, "one departure closes the cycle: \(failure.departures)")

        // The schedule replays the deadlock.
        let replayed = TestCoordinator.explore(.replay(failure.schedule)) { coordinator in
            Self.saveThenRefresh(SyncedCache(coordinator), coordinator)
        } reportFailure: { _ in
        }
        #expect(replayed.failure?.error == failure.error)
    }

    // Guarantees: G-explore-deadlock
    @Test func theFixedCachePassesEveryOrdering() {
        let report = TestCoordinator.explore(.exhaustive, iterations: 1_000) { coordinator in
            Self.saveThenRefresh(SyncedCache(coordinator, notifiesAsynchronously: true), coordinator)
        }
        #expect(report.failure == nil)
        #expect(report.coveredEveryOrdering)
        #expect(report.runs == 4, "the article's figure")
    }

    // Guarantees: G-explore-deadlock
    @Test func noMoreWorkRunsInARunOnceItDeadlocked() throws {
        let laterWorkRan = Shared<[Bool]>([])
        let report = TestCoordinator.explore(.replay("1")) { coordinator in
            Self.saveThenRefresh(SyncedCache(coordinator), coordinator)
            let ran = Shared(false)
            coordinator.main.invoke { ran.value = true }
            coordinator.runUntilIdle()
            coordinator.advance(by: .seconds(1))
            laterWorkRan.update { $0.append(ran.value) }
        } reportFailure: { _ in
        }
        #expect(try #require(report.failure).error.hasPrefix("deadlock: "))
        #expect(laterWorkRan.value == [false])
    }

    // Guarantees: G-explore-deadlock
    @Test func aMutexQueueEnteredFromInsideItselfFailsTheRunInsteadOfStoppingTheProgram() throws {
        let report = TestCoordinator.explore(.random, iterations: 3) { coordinator in
            let mutex = coordinator.serialQueue(named: "locked", type: .mutex)
            let other = coordinator.serialQueue(named: "other")
            mutex.invoke { other.invokeSync { mutex.invokeSync {} } }
            coordinator.runUntilIdle()
        } reportFailure: { _ in
        }
        let failure = try #require(report.failure)
        #expect(failure.run == 1, "it deadlocks in every ordering, the fixed one included")
        #expect(
            failure.error.hasPrefix(
                "deadlock: invokeSync onto the mutex queue \"locked\" from inside it, directly or through other queues")
        )
        #expect(failure.departures.isEmpty)
    }

    /// A gate whose `open()` wakes a waiter but forgets that it was opened: a task that reaches `wait()` after the
    /// gate opened waits for good (a lost wake-up). The fix would record `opened` and check it in `wait()`.
    final class LossyGate: Sendable {
        private let waiter = LockedBox<UnsafeContinuation<Void, Never>?>(nil)

        func wait() async {
            await withUnsafeContinuation { continuation in waiter.withLock { $0 = continuation } }
        }

        func open() {
            waiter.withLock { waiter in
                defer { waiter = nil }
                return waiter
            }?.resume()
        }
    }

    // Guarantees: G-explore-hang
    @Test func aTaskLeftWaitingWithNothingPendingFailsTheRunAsAHang() throws {
        let passedWith = Shared<[Bool]>([])
        let report = TestCoordinator.explore(.exhaustive, iterations: 10) { coordinator in
            let gate = LossyGate()
            let waited = Shared(false)
            coordinator.task {
                await gate.wait()
                waited.value = true
            }
            coordinator.serialQueue(named: "opener").invoke { gate.open() }
            coordinator.runUntilIdle()
            passedWith.update { $0.append(waited.value) }
        } reportFailure: { _ in
        }
        let failure = try #require(report.failure)
        #expect(passedWith.value.first == true, "the fixed order passes: the task waits before the gate opens")
        #expect(
            failure.error.hasPrefix(
                "hang: nothing is pending, and 1 task started with coordinator.task never finished (a task started "
                    + "at ExplorationDeadlockTests.swift:"), "\(failure.error)")
        #expect(failure.departures.count == 1, "the opener ran first: \(failure.departures)")
    }

    // Guarantees: G-explore-hang
    @Test func aTaskStillWaitingForPendingWorkIsNoHang() {
        let report = TestCoordinator.explore(.random, iterations: 20) { coordinator in
            coordinator.task { try await coordinator.clock.sleep(for: .seconds(1)) }
            coordinator.runUntilIdle()  // the sleep is pending: the body simply stopped early
        }
        #expect(report.failure == nil)
    }

    // Guarantees: G-explore-deadlock
    @Test func aCycleThroughThreeQueuesIsDescribedLinkByLinkWithTheInnermostWork() throws {
        let report = TestCoordinator.explore(.replay("")) { coordinator in
            let (x, y, z) = (
                coordinator.serialQueue(named: "x"), coordinator.serialQueue(named: "y"),
                coordinator.serialQueue(named: "z")
            )
            y.invoke { z.invokeSync {} }  // waits for z's block, queued before the call
            z.invoke { x.invokeSync {} }  // waits for x's block, queued before the call
            x.invoke { y.invokeSync {} }  // waits for y: the caller of the first block holds it
            coordinator.runUntilIdle()
        } reportFailure: { _ in
        }
        let error = try #require(report.failure).error
        #expect(
            error.hasPrefix(
                "deadlock: a caller inside \"y\" waits in invokeSync for work on \"z\", that work waits in invokeSync "
                    + "for work on \"x\", and that work calls invokeSync onto \"y\": for real, each would wait for the "
                    + "next; the work that waited: block on \"x\""), "\(error)")
    }

    // Guarantees: G-explore-deadlock
    @Test func aCycleTheTestItselfStartsNamesTheWorkThatWaitedNotAnEarlierRunsWork() throws {
        let report = TestCoordinator.explore(.replay("")) { coordinator in
            let (a, b) = (coordinator.serialQueue(named: "a"), coordinator.serialQueue(named: "b"))
            coordinator.serialQueue(named: "earlier").invoke {}
            coordinator.runUntilIdle()  // an earlier run's work, not part of the cycle
            b.invoke { a.invokeSync {} }
            a.invokeSync { b.invokeSync {} }  // the test enters a, then waits for b's queued block
        } reportFailure: { _ in
        }
        let error = try #require(report.failure).error
        #expect(error.contains("the work that waited: block on \"b\""), "\(error)")
        #expect(!error.contains("earlier"), "\(error)")
    }
}

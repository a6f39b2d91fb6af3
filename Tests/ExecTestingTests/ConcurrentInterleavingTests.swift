// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Blocks on a coordinator's concurrent queue interleave under exploration (issue #39, item 5): each ExecKit call onto
/// the coordinator and each `PThreadMutex`/`LockedBox` acquisition inside one is a point where other work may run, as
/// real threads can run between them, and `exhaustive` covers those interleavings too.
@Suite struct ConcurrentInterleavingTests {
    /// An account paid from two `.global` blocks. The wrong one checks the balance under the lock, lets go, and takes
    /// the money under it again; the fix checks and takes in one acquisition.
    final class Account: Sendable {
        let balance = LockedBox(100)
        let checksAndTakesTogether: Bool

        init(checksAndTakesTogether: Bool) { self.checksAndTakesTogether = checksAndTakesTogether }

        func pay(_ amount: Int) {
            if checksAndTakesTogether {
                balance.withLock { if $0 >= amount { $0 -= amount } }
            } else {
                let covered = balance.withLock { $0 >= amount }
                if covered { balance.withLock { $0 -= amount } }
            }
        }
    }

    static func payTwice(_ account: Account, _ coordinator: TestCoordinator) {
        coordinator.global.invoke { account.pay(80) }
        coordinator.global.invoke { account.pay(80) }
        coordinator.runUntilIdle()
        #expect(account.balance.withLock { $0 } >= 0)
    }

    // Guarantees: G-explore-interleaves-locks
    @Test func aCheckThenActSplitAcrossTwoLockAcquisitionsIsFound() throws {
        let report = TestCoordinator.explore(.exhaustive, iterations: 1_000, interleavesGlobalBlocks: true) {
            coordinator in
            Self.payTwice(Account(checksAndTakesTogether: false), coordinator)
        } reportFailure: { _ in
        }
        let failure = try #require(report.failure)
        #expect(failure.error.contains("-60"), "\(failure.error)")

        let fixed = TestCoordinator.explore(.exhaustive, iterations: 1_000, interleavesGlobalBlocks: true) {
            coordinator in
            Self.payTwice(Account(checksAndTakesTogether: true), coordinator)
        }
        #expect(fixed.failure == nil)
        #expect(fixed.coveredEveryOrdering)
        #expect(fixed.runs > 1, "the two blocks' acquisitions are tried in both orders")
    }

    /// Without `interleavesGlobalBlocks`, each block runs whole: the race is not found, and a run in which a block made
    /// two acquisitions keeps the report from claiming every ordering covered. A block that makes one keeps the claim.
    // Guarantees: G-explore-whole-blocks-withhold
    @Test func wholeBlocksWithholdTheClaimWhenABlockHadTwoPoints() {
        let whole = TestCoordinator.explore(.exhaustive, iterations: 1_000) { coordinator in
            Self.payTwice(Account(checksAndTakesTogether: false), coordinator)
        }
        #expect(whole.failure == nil, "whole blocks never interleave")
        #expect(!whole.coveredEveryOrdering)

        let onePoint = TestCoordinator.explore(.exhaustive, iterations: 1_000) { coordinator in
            Self.payTwice(Account(checksAndTakesTogether: true), coordinator)
        }
        #expect(onePoint.failure == nil)
        #expect(onePoint.coveredEveryOrdering)
    }

    // Guarantees: G-explore-interleaves-locks
    @Test func randomAndPCTFindItToo() throws {
        for strategy in [ExplorationStrategy.random, .pct()] {
            let report = TestCoordinator.explore(strategy, iterations: 1_000, interleavesGlobalBlocks: true) {
                coordinator in
                Self.payTwice(Account(checksAndTakesTogether: false), coordinator)
            } reportFailure: { _ in
            }
            #expect(report.failure != nil, "\(strategy)")
        }
    }

    /// Two `.global` blocks each hop twice onto `main`: their hops interleave there.
    // Guarantees: G-explore-interleaves-calls
    @Test func twoBlocksHopsInterleaveOnMain() {
        let seen = Shared<Set<String>>([])
        let report = TestCoordinator.explore(.exhaustive, iterations: 1_000, interleavesGlobalBlocks: true) {
            coordinator in
            let log = Shared<[String]>([])
            for name in ["a", "b"] {
                coordinator.global.invoke {
                    coordinator.main.invoke { log.update { $0.append(name + "1") } }
                    coordinator.main.invoke { log.update { $0.append(name + "2") } }
                }
            }
            coordinator.runUntilIdle()
            seen.update { $0.insert(log.value.joined(separator: " ")) }
        }
        #expect(report.failure == nil)
        #expect(report.coveredEveryOrdering)
        #expect(seen.value.contains("a1 b1 a2 b2"), "\(seen.value.sorted())")
        #expect(seen.value.contains("b1 a1 b2 a2"), "\(seen.value.sorted())")
        #expect(seen.value.count == 6, "every interleaving of two chains of two: \(seen.value.sorted())")
    }

    /// Two `.global` blocks take two locks in opposite orders. Real threads can each take their first lock and wait
    /// for the other's forever; exploration finds that run and fails it as a deadlock, naming both blocks, instead of
    /// hanging. Taking the locks in one order passes with every ordering covered.
    // Guarantees: G-explore-interleaves-locks, G-explore-lock-deadlock
    @Test func aLockOrderInversionFailsTheRunAsADeadlock() throws {
        func transfer(_ coordinator: TestCoordinator, inOneOrder: Bool) {
            let (a, b) = (PThreadMutex(), PThreadMutex())
            let moved = Shared(0)
            coordinator.global.invoke { a.sync { b.sync { moved.update { $0 += 1 } } } }
            coordinator.global.invoke {
                if inOneOrder {
                    a.sync { b.sync { moved.update { $0 += 1 } } }
                } else {
                    b.sync { a.sync { moved.update { $0 += 1 } } }
                }
            }
            coordinator.runUntilIdle()
            #expect(moved.value == 2)
        }
        let report = TestCoordinator.explore(.exhaustive, iterations: 1_000, interleavesGlobalBlocks: true) {
            coordinator in
            transfer(coordinator, inOneOrder: false)
        } reportFailure: { _ in
        }
        let failure = try #require(report.failure)
        #expect(failure.error.hasPrefix("deadlock: the block on \"global\" scheduled at "), "\(failure.error)")
        #expect(failure.error.contains("waits for a lock held by the block on \"global\""), "\(failure.error)")
        #expect(failure.error.components(separatedBy: "waits for a lock held by").count == 3, "both waits named")
        #expect(failure.error.contains("ConcurrentInterleavingTests.swift"), "\(failure.error)")

        let fixed = TestCoordinator.explore(.exhaustive, iterations: 1_000, interleavesGlobalBlocks: true) {
            coordinator in
            transfer(coordinator, inOneOrder: true)
        }
        #expect(fixed.failure == nil)
        #expect(fixed.coveredEveryOrdering)
    }

    /// A block on a serial queue that wants a lock a parked `.global` block holds waits for it: the global block runs
    /// on until it lets go. When the serial block has done nothing before asking, no ordering is left out.
    // Guarantees: G-explore-interleaves-locks
    @Test func aSerialBlockWaitsForALockAParkedBlockHolds() {
        let seen = Shared<Set<String>>([])
        let report = TestCoordinator.explore(.exhaustive, iterations: 1_000, interleavesGlobalBlocks: true) {
            coordinator in
            let log = LockedBox<[String]>([])
            coordinator.global.invoke {
                log.withLock {
                    $0.append("g1")
                    coordinator.main.invoke {}  // a point inside the lock: the block may park here
                    $0.append("g2")
                }
            }
            coordinator.serialQueue(named: "s").invoke { log.withLock { $0.append("s") } }
            coordinator.runUntilIdle()
            seen.update { $0.insert(log.withLock { $0.joined(separator: " ") }) }
        }
        #expect(report.failure == nil)
        #expect(report.coveredEveryOrdering)
        #expect(seen.value == ["g1 g2 s", "s g1 g2"], "never between g1 and g2: \(seen.value.sorted())")
    }

    /// A lock one serial block takes and a later one lets go: a `.global` block that asks for it meanwhile waits,
    /// parked, for the later block (no deadlock, no hang).
    // Guarantees: G-explore-interleaves-locks
    @Test func aLockHeldAcrossSerialBlocksIsWaitedFor() {
        let seen = Shared<Set<String>>([])
        let report = TestCoordinator.explore(.exhaustive, iterations: 1_000, interleavesGlobalBlocks: true) {
            coordinator in
            let mutex = PThreadMutex()
            let log = Shared<[String]>([])
            let serial = coordinator.serialQueue(named: "s")
            serial.invoke { mutex.unbalancedLock() }
            coordinator.global.invoke { mutex.sync { log.update { $0.append("global") } } }
            serial.invoke {
                log.update { $0.append("unlock") }
                mutex.unbalancedUnlock()
            }
            coordinator.runUntilIdle()
            seen.update { $0.insert(log.value.joined(separator: " ")) }
        }
        #expect(report.failure == nil)
        #expect(report.coveredEveryOrdering)
        #expect(seen.value.contains("unlock global"), "\(seen.value.sorted())")
    }

    /// A serial block waits for a lock a stopped `.global` block holds, and that block, run on, calls `invokeSync` onto
    /// the serial block's queue: real threads would wait for each other. The run fails as a deadlock.
    // Guarantees: G-explore-lock-deadlock
    @Test func aBlockRunOnForAWaiterThatEntersTheWaitersQueueIsADeadlock() throws {
        let report = TestCoordinator.explore(.exhaustive, iterations: 1_000, interleavesGlobalBlocks: true) {
            coordinator in
            let lock = PThreadMutex()
            let queue = coordinator.serialQueue(named: "s")
            coordinator.global.invoke {
                lock.sync {
                    coordinator.main.invoke {}
                    queue.invokeSync {}
                }
            }
            queue.invoke { lock.sync {} }
            coordinator.runUntilIdle()
        } reportFailure: { _ in
        }
        let failure = try #require(report.failure)
        #expect(failure.error.contains("calls invokeSync onto \"s\", where work waits for a lock"), "\(failure.error)")
    }

    /// The serial block acted before it asked for the lock: running the parked block on could hide an ordering, so
    /// the exploration does not claim it covered them all.
    // Guarantees: G-explore-interleaves-locks
    @Test func aWaitAfterTheSerialBlockActedWithholdsTheClaim() {
        let report = TestCoordinator.explore(.exhaustive, iterations: 1_000, interleavesGlobalBlocks: true) {
            coordinator in
            let lock = LockedBox(0)
            coordinator.global.invoke {
                lock.withLock { _ in coordinator.main.invoke {} }
            }
            coordinator.serialQueue(named: "s").invoke {
                coordinator.main.invoke {}
                lock.withLock { $0 += 1 }
            }
            coordinator.runUntilIdle()
        }
        #expect(report.failure == nil)
        #expect(!report.coveredEveryOrdering)
    }

    /// A failing `#expect` inside a `.global` block, which runs on a thread of its own, fails the test like one in a
    /// block run inline: it is the test's issue (a known one of the exploration's), found and replayed.
    // Guarantees: G-explore-interleaves-calls
    @Test func anExpectInsideAnInterleavedBlockFailsTheRun() throws {
        let report = TestCoordinator.explore(.exhaustive, iterations: 1_000, interleavesGlobalBlocks: true) {
            coordinator in
            let log = Shared<[String]>([])
            for name in ["a", "b"] {
                coordinator.global.invoke {
                    log.update { $0.append(name) }
                    coordinator.main.invoke {}
                    log.update { $0.append(name) }
                    #expect(log.value.count != 3 || log.value[0] == log.value[1], "\(log.value)")
                }
            }
            coordinator.runUntilIdle()
        } reportFailure: { _ in
        }
        let failure = try #require(report.failure)
        #expect(failure.error.contains("Expectation failed"), "\(failure.error)")
    }

    /// A try-lock of a lock a parked block holds fails at once, as it would on real threads, and is a point too.
    // Guarantees: G-explore-interleaves-locks
    @Test func aTryLockOfALockAParkedBlockHoldsFails() {
        let outcomes = Shared<Set<Bool>>([])
        let report = TestCoordinator.explore(.exhaustive, iterations: 1_000, interleavesGlobalBlocks: true) {
            coordinator in
            let mutex = PThreadMutex()
            coordinator.global.invoke { mutex.sync { coordinator.main.invoke {} } }
            coordinator.global.invoke {
                coordinator.main.invoke {}
                let took = mutex.trySync { true } ?? false
                outcomes.update { $0.insert(took) }
            }
            coordinator.runUntilIdle()
        }
        #expect(report.failure == nil)
        #expect(outcomes.value == [true, false])
    }

    /// A recursive lock taken again by the block that holds it is no wait.
    // Guarantees: G-explore-interleaves-locks
    @Test func aRecursiveLockTakenAgainIsNoWait() {
        let report = TestCoordinator.explore(.exhaustive, iterations: 1_000, interleavesGlobalBlocks: true) {
            coordinator in
            let mutex = PThreadMutex(type: .recursive)
            let count = Shared(0)
            for _ in 0..<2 {
                coordinator.global.invoke {
                    mutex.sync {
                        coordinator.main.invoke {}
                        mutex.sync { count.update { $0 += 1 } }
                    }
                }
            }
            coordinator.runUntilIdle()
            #expect(count.value == 2)
        }
        #expect(report.failure == nil)
        #expect(report.coveredEveryOrdering)
    }

    /// A `.global` block sees the test's task-local values, as a block run inline does, though it runs on a thread of
    /// its own (and stops part-way).
    @TaskLocal static var requestID = 0

    static func currentThread() -> UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
    // Guarantees: G-explore-interleaves-calls
    @Test func anInterleavedBlockSeesTheTestsTaskLocals() {
        let seen = Shared<Set<Int>>([])
        let threads = Shared<Set<UInt>>([])
        let testThread = Self.currentThread()
        Self.$requestID.withValue(7) {
            _ = TestCoordinator.explore(.exhaustive, iterations: 10, interleavesGlobalBlocks: true) { coordinator in
                let lock = LockedBox(0)
                coordinator.global.invoke {
                    lock.withLock { $0 += 1 }
                    lock.withLock { $0 += 1 }  // a stop: the rest runs later, on the same thread
                    seen.update { _ = $0.insert(Self.requestID) }
                    threads.update { _ = $0.insert(Self.currentThread()) }
                }
                coordinator.runUntilIdle()
            }
        }
        #expect(seen.value == [7])
        #expect(!threads.value.isEmpty && !threads.value.contains(testThread), "a thread of its own")
    }

    /// An inline `invokeSync` from a `.global` block onto a serial queue runs whole (the block stands in that queue
    /// meanwhile), and the blocks queued there first run before it.
    // Guarantees: G-explore-interleaves-calls
    @Test func anInvokeSyncFromAnInterleavedBlockRunsWhole() {
        let seen = Shared<Set<String>>([])
        let report = TestCoordinator.explore(.exhaustive, iterations: 1_000, interleavesGlobalBlocks: true) {
            coordinator in
            let log = Shared<[String]>([])
            let queue = coordinator.serialQueue(named: "s")
            coordinator.global.invoke {
                queue.invokeSync {
                    log.update { $0.append("sync1") }
                    coordinator.main.invoke {}
                    log.update { $0.append("sync2") }
                }
            }
            coordinator.global.invoke { log.update { $0.append("other") } }
            coordinator.runUntilIdle()
            seen.update { $0.insert(log.value.joined(separator: " ")) }
        }
        #expect(report.failure == nil)
        #expect(seen.value == ["sync1 sync2 other", "other sync1 sync2"], "\(seen.value.sorted())")
    }

    /// A run that leaves a block parked (the step limit stops it) lets the block finish on its own thread once the
    /// coordinator is gone: nothing hangs.
    @Test func aBlockParkedWhenTheRunStopsFinishes() async {
        let (started, finished) = (Shared(0), Shared(0))
        _ = TestCoordinator.explore(.exhaustive, iterations: 5, stepLimit: 2, interleavesGlobalBlocks: true) {
            coordinator in
            for _ in 0..<2 {
                coordinator.global.invoke {
                    started.update { $0 += 1 }
                    coordinator.main.invoke {}
                    coordinator.main.invoke {}
                    finished.update { $0 += 1 }
                }
            }
            coordinator.runUntilIdle()
        } reportFailure: { _ in
        }
        for _ in 0..<2_000 where finished.value < started.value { try? await Task.sleep(for: .milliseconds(5)) }
        #expect(started.value >= 2)
        #expect(finished.value == started.value, "every block started ends")
    }

    #if os(macOS) || os(Linux) || os(Windows)
    /// A serial block that holds one lock and asks for another, which a parked `.global` block holds while it waits
    /// for the first: the serial block cannot stop, so the program stops, with a message that names both.
    // Guarantees: G-explore-lock-deadlock
    @Test func aLockCycleThroughASerialBlockStopsTheProgramWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TestCoordinator.explore(.exhaustive, iterations: 100, interleavesGlobalBlocks: true) { coordinator in
                let (a, b) = (PThreadMutex(), PThreadMutex())
                coordinator.global.invoke {
                    b.sync {
                        coordinator.main.invoke {}
                        a.sync {}
                    }
                }
                coordinator.serialQueue(named: "s").invoke { a.sync { b.sync {} } }
                coordinator.runUntilIdle()
            }
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("ExecTesting: deadlock: the block on \"global\" scheduled at "), "\(text)")
        #expect(text.contains("waits for a lock held by the work running on the coordinator's thread"), "\(text)")
    }
    #endif
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecNotifications
import ExecTestSupport
import ExecTesting
import Testing

/// Code written against the real `Exec.main` and `Exec.utility`, unchanged: it polls every 10 s on a global queue and
/// publishes each result on the main queue.
private final class HardWiredPoller: Sendable {
    private let state = LockedBox((polls: 0, onMain: [Bool]()))
    private let timer = LockedBox<(any Lifetime)?>(nil)

    var polls: Int { state.withLock { $0.polls } }
    var publishedOnMain: [Bool] { state.withLock { $0.onMain } }

    func start() {
        let lifetime = Exec.utility.periodicTimer(interval: .seconds(10)) { [weak self] in
            guard let self else { return }
            Exec.main.invoke { self.publish() }
        }
        timer.withLock { $0 = lifetime }
    }

    func stop() { timer.withLock { $0?.cancel() } }

    private func publish() {
        let onMain = Exec.main.isCurrent
        state.withLock {
            $0.polls += 1
            $0.onMain.append(onMain)
        }
    }
}

/// `TestCoordinator.overridingSharedContexts` redirects code that hard-wires the shared contexts to the coordinator.
/// (Swift Testing runs these tests off the main queue, which the override needs; see its documented limits.)
@Suite struct SharedContextOverrideTests {
    // Guarantees: G-virtual-override-redirects
    @Test func hardWiredCodeRunsAnHourInVirtualTime() {
        let coordinator = TestCoordinator()
        let poller = HardWiredPoller()
        coordinator.overridingSharedContexts {
            poller.start()
            coordinator.advance(by: .seconds(3_600))
        }
        #expect(poller.polls == 360)
        #expect(poller.publishedOnMain.allSatisfy { $0 })
        poller.stop()
        coordinator.assertNoPendingWork { Issue.record(Comment(rawValue: $0)) }
    }

    /// Issue #28, item 6: `Exec.direct.serialized()` made inside the override is all virtual: its `invokeAsync`, its
    /// timers and clock, and an actor on its executor all run inside the coordinator, in virtual time. (Its
    /// `invokeAsync` and actor executor used a real private queue.)
    // Guarantees: G-virtual-override-redirects, G-virtual-serialized-direct
    @Test func directSerializedMadeInsideTheOverrideStaysInVirtualTime() async {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let context = coordinator.overridingSharedContexts { Exec.direct.serialized() }
        context.invokeAsync {
            log.append("async in \(coordinator.currentQueueName ?? "none"), inside: \(context.isCurrent)")
        }
        let timer = context.singleTimer(interval: .seconds(2)) { log.append("timer at \(coordinator.seconds)") }
        let counter = MutexActor(context: context)
        let task = coordinator.task { await counter.increment() }
        #expect(log.entries.isEmpty, "nothing ran before the test's call")
        coordinator.advance(by: .seconds(2))
        #expect(log.entries == ["async in global, inside: true", "timer at 2.0"])
        #expect(context.timestamp() == coordinator.now)
        let value = LockedBox<Int?>(nil)
        let finished = await finishes(within: 30) {
            let count = await task.value
            value.withLock { $0 = count }
        }
        #expect(finished && value.withLock { $0 } == 1, "the actor's job ran inside advance")
        withExtendedLifetime(timer) {}
    }

    // Guarantees: G-virtual-override-redirects
    @Test func eachSharedCaseRunsOnTheSimulatedQueueItStandsFor() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        coordinator.overridingSharedContexts {
            let cases: [(String, Exec)] = [
                ("main", .main), ("mainAsync", .mainAsync), ("mainOrdered", .mainOrdered),
                ("interactive", .interactive), ("user", .user), ("default", .default), ("utility", .utility),
                ("background", .background),
            ]
            for (name, context) in cases {
                context.invoke { log.append("\(name) on \(coordinator.currentQueueName ?? "none")") }
            }
            Exec.direct.invokeAsync { log.append("direct.invokeAsync on \(coordinator.currentQueueName ?? "none")") }
            Exec.direct.invoke { log.append("direct.invoke inline") }
            #expect(log.entries == ["direct.invoke inline"])
            coordinator.runUntilIdle()
        }
        #expect(
            log.entries == [
                "direct.invoke inline", "main on main", "mainAsync on main", "mainOrdered on main",
                "interactive on global", "user on global", "default on global", "utility on global",
                "background on global", "direct.invokeAsync on global",
            ])
    }

    // Guarantees: G-virtual-override-redirects
    @Test func mainIsImmediateExactlyInsideTheSimulatedMainQueue() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        coordinator.overridingSharedContexts {
            #expect(!Exec.main.isCurrent)
            #expect(Exec.main.type == .conditionallyAsync(true))
            Exec.main.invoke {
                #expect(Exec.main.isCurrent)
                #expect(Exec.main.type == .conditionallyAsync(false))
                Exec.main.invoke { log.append("nested, inline") }
                log.append("after nested")
                Exec.utility.invoke { log.append("utility, queued") }
            }
            #expect(log.entries.isEmpty)
            coordinator.runUntilIdle()
        }
        #expect(log.entries == ["nested, inline", "after nested", "utility, queued"])
    }

    // Guarantees: G-virtual-override-redirects
    @Test func timersAndTimestampsUseVirtualTime() {
        let coordinator = TestCoordinator()
        let firedAt = Shared<[Double]>([])
        coordinator.overridingSharedContexts {
            coordinator.advance(by: .seconds(5))
            #expect(Exec.main.timestamp() == coordinator.now)
            #expect(Exec.utility.timestamp() == coordinator.now)
            let single = Exec.main.singleTimer(interval: .seconds(30)) {
                firedAt.update { $0.append(coordinator.seconds) }
            }
            let direct = Exec.direct.singleTimer(interval: .seconds(40)) {
                firedAt.update { $0.append(coordinator.seconds) }
            }
            coordinator.advance(by: .seconds(29.999))
            #expect(firedAt.value.isEmpty)
            coordinator.advance(by: .seconds(60))
            #expect(firedAt.value == [35, 45])
            withExtendedLifetime((single, direct)) {}
        }
    }

    // Guarantees: G-virtual-override-private-queues
    @Test func privateQueuesMadeInsideTheScopeAreSimulated() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        coordinator.overridingSharedContexts {
            // A service that makes its own queues: unchanged code, as it would run in the app.
            let database = Exec.asyncQueue(label: "database")
            let lock = Exec.syncQueue(label: "lock")
            let serialized = Exec.utility.serialized()
            let timers = [
                database.singleTimer(interval: .seconds(1)) {
                    log.append("database at \(coordinator.seconds) in \(coordinator.currentQueueName ?? "none")")
                },
                serialized.singleTimer(interval: .seconds(2)) {
                    log.append("serialized in \(coordinator.currentQueueName ?? "none"), \(serialized.isCurrent)")
                },
            ]
            lock.invoke { log.append("lock in \(coordinator.currentQueueName ?? "none"), \(lock.isCurrent)") }
            #expect(lock.type == .mutex)
            #expect(database.type == .serialAsync)
            coordinator.advance(by: .seconds(2))
            withExtendedLifetime(timers) {}
        }
        #expect(
            log.entries == [
                "lock in lock, true", "database at 1.0 in database", "serialized in ExecKit.serialized, true",
            ])
        if case .queue = Exec.asyncQueue() {} else { Issue.record("outside the scope, asyncQueue() is a real queue") }
    }

    // Guarantees: G-virtual-override-redirects
    @Test func invokeSyncOnASharedContextRunsInItsSimulatedQueue() {
        let coordinator = TestCoordinator()
        coordinator.overridingSharedContexts {
            #expect(Exec.utility.invokeSync { coordinator.currentQueueName } == "global")
            #expect(Exec.main.invokeSync { Exec.main.isCurrent })
        }
    }

    // Guarantees: G-virtual-override-scope
    @Test func theRealContextsReturnWhenTheScopeEnds() {
        let coordinator = TestCoordinator()
        coordinator.overridingSharedContexts {}
        let ran = DispatchSemaphore(value: 0)
        Exec.utility.invoke { ran.signal() }
        #expect(ran.wait(timeout: .now() + 10) == .success)
        #expect(coordinator.isIdle)
    }

    // Guarantees: G-virtual-override-scope
    @Test func otherThreadsKeepTheRealContexts() {
        let coordinator = TestCoordinator()
        let ran = DispatchSemaphore(value: 0)
        coordinator.overridingSharedContexts {
            // A thread with no task and no override of its own: as a test running in parallel would be.
            DispatchQueue.global().async { Exec.utility.invoke { ran.signal() } }
            #expect(ran.wait(timeout: .now() + 10) == .success)
            #expect(coordinator.isIdle)
        }
    }

    // Guarantees: G-virtual-override-scope
    @Test func anInnerScopeWinsAndTheOuterReturns() {
        let outer = TestCoordinator()
        let inner = TestCoordinator()
        outer.overridingSharedContexts {
            inner.overridingSharedContexts { Exec.utility.invoke {} }
            Exec.utility.invoke {}
            Exec.utility.invoke {}
        }
        #expect(inner.pendingWork.count == 1)
        #expect(outer.pendingWork.count == 2)
    }

    // Guarantees: G-virtual-override-scope, G-virtual-override-redirects
    @Test func tasksStartedInTheScopeRunOnTheCoordinator() async throws {
        let coordinator = TestCoordinator()
        let task = coordinator.overridingSharedContexts {
            Exec.utility.task {
                let onMain = await Exec.main.perform { Exec.main.isCurrent }
                try await coordinator.clock.sleep(for: .seconds(30))
                return (onMain, await Exec.utility.perform { coordinator.currentQueueName })
            }
        }
        await coordinator.overridingSharedContexts {
            coordinator.runUntilIdle()
            #expect(coordinator.pendingWork.map(\.kind) == [.sleep])
            await Task.yield()  // an asynchronous body takes the async overload; the override covers it throughout
            #expect(Exec.utility.timestamp() == coordinator.now)
            coordinator.advance(by: .seconds(30))
        }
        let (ranOnMain, queueName) = try await task.value
        #expect(ranOnMain)
        #expect(queueName == "global")
    }

    // Guarantees: G-virtual-override-redirects
    @Test func notificationObserversOnSharedContextsAreDeliveredInVirtualTime() {
        let coordinator = TestCoordinator()
        let hub = NotificationHub()
        let name = NotificationName<Int>("count")
        let log = EventLog()
        coordinator.overridingSharedContexts {
            let onMain = hub.addObserver(for: name, context: .main) { log.append("main \($0) \(Exec.main.isCurrent)") }
            let onUtility = hub.addObserver(for: name, context: .utility) {
                log.append("utility \($0) on \(coordinator.currentQueueName ?? "none")")
            }
            hub.post(name, payload: 1)
            #expect(log.entries.isEmpty)
            coordinator.runUntilIdle()
            withExtendedLifetime((onMain, onUtility)) {}
        }
        #expect(log.entries == ["main 1 true", "utility 1 on global"])
    }

    // Guarantees: G-virtual-override-not-redirected
    @Test func customContextsAndQueueContextsAreLeftAlone() {
        let coordinator = TestCoordinator()
        let ran = DispatchSemaphore(value: 0)
        coordinator.overridingSharedContexts {
            Exec.queue(DispatchQueue(label: "mine"), .serialAsync).invoke { ran.signal() }
            #expect(ran.wait(timeout: .now() + 10) == .success)
            coordinator.main.invoke {}  // a .custom context: the coordinator's own, queued as always
        }
        #expect(coordinator.pendingWork.count == 1)
    }
}

/// An actor on a context made inside the override.
private actor MutexActor {
    let context: Exec
    nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedSerialExecutor }
    private var count = 0

    init(context: Exec) { self.context = context }

    func increment() -> Int {
        count += 1
        return count
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTesting
import Testing

/// `declareIndependent` (issue #31): an exhaustive exploration skips orderings that differ only in the order of work
/// on queues declared independent (sleep sets), and only while that work schedules and cancels nothing.
@Suite struct ExplorationIndependenceTests {
    /// Three blocks on each of two queues, each appending to its queue's own log (nothing shared), with `followUp`
    /// each also queueing a block on main that logs which queue it came from. Returns the two queues' logs and
    /// main's.
    private static func twoQueues(
        _ coordinator: TestCoordinator, declared: Bool, followUp: Bool = false
    ) -> (queues: [[Int]], main: [String]) {
        let logs = [Shared<[Int]>([]), Shared<[Int]>([])]
        let mainLog = Shared<[String]>([])
        let queues = [coordinator.serialQueue(named: "a"), coordinator.serialQueue(named: "b")]
        if declared { coordinator.declareIndependent(queues[0], queues[1]) }
        for block in 0..<3 {
            for index in 0..<2 {
                queues[index].invoke {
                    logs[index].update { $0.append(block) }
                    if followUp { coordinator.main.invoke { mainLog.update { $0.append(index == 0 ? "a" : "b") } } }
                }
            }
        }
        coordinator.runUntilIdle()
        return (logs.map(\.value), mainLog.value)
    }

    // Guarantees: G-explore-independent, G-explore-exhaustive
    @Test func workOnQueuesDeclaredIndependentRunsInFewerOrderingsWithTheSameOutcomes() {
        let outcomes = Shared<Set<[[Int]]>>([])
        let all = TestCoordinator.explore(.exhaustive, iterations: 1_000) { coordinator in
            _ = Self.twoQueues(coordinator, declared: false)
        }
        let reduced = TestCoordinator.explore(.exhaustive, iterations: 1_000) { coordinator in
            let outcome = Self.twoQueues(coordinator, declared: true).queues
            outcomes.update { _ = $0.insert(outcome) }
        }
        #expect(all.runs == 20, "6! / (3! · 3!) orderings of two FIFO queues of three")
        #expect(reduced.runs == 6, "sleep sets skip the orderings already covered")
        #expect(all.coveredEveryOrdering && reduced.coveredEveryOrdering)
        #expect(outcomes.value == [[[0, 1, 2], [0, 1, 2]]])
    }

    /// Work that schedules is never taken for independent: the order of its follow-ups on main depends on it. The
    /// test wants "a"'s follow-ups first, which the fixed order gives; the declaration does not hide the others.
    // Guarantees: G-explore-independent
    @Test func workThatSchedulesFollowUpsIsStillExploredInEveryOrder() throws {
        let fixed = TestCoordinator()
        #expect(Self.twoQueues(fixed, declared: true, followUp: true).main == ["a", "b", "a", "b", "a", "b"])

        let declared = TestCoordinator.explore(.exhaustive, iterations: 10_000) { coordinator in
            let main = Self.twoQueues(coordinator, declared: true, followUp: true).main
            try #require(main.first == "a")
        } reportFailure: { _ in
        }
        let undeclared = TestCoordinator.explore(.exhaustive, iterations: 10_000) { coordinator in
            _ = Self.twoQueues(coordinator, declared: false, followUp: true)
        }
        let declaredAll = TestCoordinator.explore(.exhaustive, iterations: 10_000) { coordinator in
            _ = Self.twoQueues(coordinator, declared: true, followUp: true)
        }
        let failure = try #require(declared.failure, "b's follow-up first is still reached")
        #expect(failure.departures.count == 1)
        #expect(undeclared.coveredEveryOrdering && declaredAll.coveredEveryOrdering)
        #expect(declaredAll.runs == undeclared.runs, "no ordering skipped: every block scheduled a follow-up")
    }

    /// Random runs ignore the declaration: they choose among every candidate, as before.
    // Guarantees: G-explore-independent
    @Test func randomRunsIgnoreTheDeclaration() {
        let orders = Shared<Set<String>>([])
        TestCoordinator.explore(.random, iterations: 200, seed: 3) { coordinator in
            let log = Shared<[String]>([])
            let (a, b) = (coordinator.serialQueue(named: "a"), coordinator.serialQueue(named: "b"))
            coordinator.declareIndependent(a, b)
            a.invoke { log.update { $0.append("a") } }
            b.invoke { log.update { $0.append("b") } }
            coordinator.runUntilIdle()
            orders.update { _ = $0.insert(log.value.joined()) }
        }
        #expect(orders.value == ["ab", "ba"])
    }

    /// A response on one queue cancels a time-out timer on another: they do not commute (after the cancel, the timer
    /// never fires), so a declaration must not hide the ordering where the time-out fires first. The outcomes seen
    /// with the declaration are those seen without it.
    // Guarantees: G-explore-independent
    @Test func workThatCancelsOtherWorkNeverGoesToSleep() {
        func outcomes(declared: Bool) -> Set<String> {
            let seen = Shared<Set<String>>([])
            let report = TestCoordinator.explore(.exhaustive, iterations: 1_000) { coordinator in
                let (timeouts, responses) = (
                    coordinator.serialQueue(named: "timeouts"), coordinator.serialQueue(named: "responses")
                )
                if declared { coordinator.declareIndependent(timeouts, responses) }
                let events = Shared<[String]>([])
                let timeout = Shared<(any Lifetime)?>(nil)
                // The response is scheduled first, so the fixed order (and the first run) tries it first.
                responses.invoke(after: .seconds(1)) {
                    timeout.value?.cancel()
                    events.update { $0.append("response") }
                }
                timeout.value = timeouts.singleTimer(interval: .seconds(1)) { events.update { $0.append("timeout") } }
                coordinator.main.invoke(after: .seconds(1)) { events.update { $0.append("read") } }
                coordinator.advance(by: .seconds(2))
                seen.update { _ = $0.insert(events.value.joined(separator: ",")) }
            }
            #expect(report.coveredEveryOrdering)
            return seen.value
        }
        let all = outcomes(declared: false)
        #expect(all.contains("timeout,response,read"), "the time-out fires before the response: \(all)")
        #expect(outcomes(declared: true) == all)
    }

    /// Issue #39's first finding: four pieces of work due at 1 s, three of them on queues declared independent (a
    /// response that cancels a time-out, a block on `x`, the time-out), and a read on main of what ran. The driver
    /// coming back a second time to a choice of three or more forgot the loud sibling tried there first, and put it to
    /// sleep: "time-out fired, response answered, `x` not yet" was never run. Every outcome seen undeclared is seen
    /// declared.
    // Guarantees: G-explore-independent, G-explore-exhaustive
    @Test func aLoudSiblingStaysAwakeWhenTheDriverReturnsToItsChoice() {
        func outcomes(declared: Bool) -> (Set<String>, ExplorationReport) {
            let seen = Shared<Set<String>>([])
            let report = TestCoordinator.explore(.exhaustive, iterations: 10_000) { coordinator in
                let responses = coordinator.serialQueue(named: "responses")
                let x = coordinator.serialQueue(named: "x")
                let timeouts = coordinator.serialQueue(named: "timeouts")
                if declared { coordinator.declareIndependent(responses, x, timeouts) }
                let ran = Shared<[String]>([])
                let seenByMain = Shared<String>("")
                let timeout = Shared<(any Lifetime)?>(nil)
                responses.invoke(after: .seconds(1)) {
                    timeout.value?.cancel()
                    ran.update { $0.append("response") }
                }
                x.invoke(after: .seconds(1)) { ran.update { $0.append("x") } }
                timeout.value = timeouts.singleTimer(interval: .seconds(1)) { ran.update { $0.append("timeout") } }
                coordinator.main.invoke(after: .seconds(1)) {
                    seenByMain.value = ran.value.sorted().joined(separator: ",")
                }
                coordinator.advance(by: .seconds(2))
                seen.update { _ = $0.insert(seenByMain.value + " / " + ran.value.sorted().joined(separator: ",")) }
            }
            return (seen.value, report)
        }
        let (undeclared, all) = outcomes(declared: false)
        let (declared, reduced) = outcomes(declared: true)
        #expect(all.coveredEveryOrdering && reduced.coveredEveryOrdering)
        #expect(undeclared.contains("response,timeout / response,timeout,x"), "\(undeclared)")
        #expect(declared == undeclared)
        #expect(reduced.runs < all.runs)
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecDispatch
@_spi(ExecTesting) import ExecMutex

extension TestCoordinator {
    /// Runs `body` many times, each time on a fresh coordinator whose work runs in another of the orders ExecKit
    /// allows (see ``WorkOrdering``), to find the ordering bugs a single fixed order hides: a completion that arrives
    /// after its timeout, two serial queues whose callbacks come back in the "wrong" order, a check-then-act split
    /// across two blocks. <!-- G-explore-runs -->
    ///
    /// ```swift
    /// @Test func ordersArriveInTheOrderPlaced() throws {
    ///     TestCoordinator.explore(.random, iterations: 200) { coordinator in
    ///         let store = Store(database: coordinator.serialQueue(named: "db"), ui: coordinator.main)
    ///         store.place("a"); store.place("b")
    ///         coordinator.runUntilIdle()
    ///         try #require(store.shown == ["a", "b"])
    ///     }
    /// }
    /// ```
    ///
    /// A run fails when `body` records an issue (`#expect`, `#require`: in a Swift Testing test, each run goes inside
    /// `withKnownIssue`, so its issues show as known issues and the test fails once, with the exploration's report) or
    /// throws (from XCTest, only a thrown error tells: `XCTUnwrap`, or an error of your own). The first failing run
    /// ends the exploration (unless `failureLimit` asks for more). Its schedule is then shrunk: each departure from the
    /// fixed order is undone in turn, and kept undone if the run still fails with the same error (a run that fails
    /// another way is another failure, never reported in this one's place), so the report names the few orderings that
    /// matter, in words, with the lines that scheduled the work. The failure goes to `reportFailure`, or, by default, is recorded as an issue of the running Swift
    /// Testing test at the caller's line (outside one, the program stops with the message; from XCTest, write
    /// `explore { coordinator in … } reportFailure: { XCTFail($0) }`). <!-- G-explore-shrinks G-explore-reports -->
    ///
    /// A run also fails when an inline `invokeSync` would wait forever for real: a caller inside one serial queue
    /// waits for work on another that calls `invokeSync` back onto the first, or a `.mutex` queue is entered from
    /// inside itself. The failure says who waits for whom and names the work that waited; the `invokeSync` returns,
    /// and nothing more runs in that run. (A plain coordinator stops the program with a message instead.)
    /// <!-- G-explore-deadlock --> And a run fails as a hang when the body returns with nothing pending on the
    /// coordinator while a task started with ``task(priority:_:)->Task<Success,Error>`` has not finished: it waits for something no work
    /// will bring (a continuation never resumed, a task that waits for it, work outside the coordinator). The report
    /// names where each such task was started; a task still in flight outside the coordinator gets up to 0.2 s of real
    /// time to finish first. Cancel a task meant to outlive the run, and run the coordinator, before the body returns.
    /// <!-- G-explore-hang -->
    ///
    /// - Parameters:
    ///   - strategy: How runs are ordered: ``ExplorationStrategy/random`` (the default),
    ///     ``ExplorationStrategy/pct(depth:expectedSteps:)``, ``ExplorationStrategy/exhaustive`` or
    ///     ``ExplorationStrategy/replay(_:)``.
    ///   - iterations: How many runs at most (a replay makes one).
    ///   - seed: Where the strategy's random choices start: the same seed, the same runs.
    ///   - recordsCallSites: As for ``init(recordsCallSites:hopLatency:hopLatencySpread:ordering:)``; the report names the scheduling
    ///     lines only when `true`.
    ///   - hopLatency: As for ``init(recordsCallSites:hopLatency:hopLatencySpread:ordering:)``.
    ///   - hopLatencySpread: How much longer than `hopLatency` each hop may take: each run starts each hop anywhere
    ///     from `hopLatency` to `hopLatency` plus this, as it chooses among orderings (``ExplorationStrategy/exhaustive``
    ///     tries it at every position among the other work due in that time). <!-- G-explore-hop-spread -->
    ///   - stepLimit: How many pieces of work one run may run. A run whose work is still due after that many fails as
    ///     a livelock (work that keeps scheduling work at the same instant, or two queues that keep waking each
    ///     other), and the report lists the last pieces that ran; the run's `runUntilIdle()` and `advance` calls
    ///     return at once from then on. <!-- G-explore-livelock -->
    ///   - failureLimit: How many failing runs end the exploration: 1 (the default) stops at the first; more go on
    ///     exploring after each failure is shrunk and reported, so that one test finds several orderings that break
    ///     (each reported on its own). <!-- G-explore-failure-limit -->
    ///   - interleavesGlobalBlocks: Whether blocks on the ``global`` queue interleave part-way: each runs on a thread of
    ///     its own and stops at each call onto the coordinator and each `PThreadMutex`/`LockedBox` acquisition, where
    ///     other work may run, as real threads can (see <doc:FindingOrderingBugs#Blocks-that-run-at-the-same-time>).
    ///     <!-- G-explore-interleaves-calls --> When `false` (the default), each runs whole, and a run in which one
    ///     made two such calls or acquisitions does not count toward ``ExplorationReport/coveredEveryOrdering``.
    ///     <!-- G-explore-whole-blocks-withhold --> Leave it off where global blocks share a lock ExecTesting cannot
    ///     see (`Synchronization.Mutex`, `NSLock`) across such a point: a block stopped while holding one makes the
    ///     next that wants it wait for real, and the program stops after 60 s with a message.
    ///   - fileID: Where a failure is recorded; defaults to the caller's file.
    ///   - line: Where a failure is recorded; defaults to the caller's line.
    ///   - reportFailure: Receives the failure's description; `nil` reports it as described above.
    ///   - reportProgress: Receives a progress line every 10,000 runs of a longer exploration: the runs so far, the
    ///     failures found, and for ``ExplorationStrategy/exhaustive`` how many branches are left untried on the last
    ///     run's path, and whether that number is still growing; `nil` writes it to standard error.
    ///     <!-- G-explore-progress -->
    ///   - body: The test, given the run's coordinator; it makes its objects anew from it each time.
    /// - Returns: How many runs were made, whether they covered every ordering (``ExplorationStrategy/exhaustive``),
    ///   and the failure, if any.
    /// - Precondition: `iterations`, `stepLimit` and `failureLimit` are at least 1; otherwise the program stops with a
    ///   message.
    ///   <!-- G-explore-misuse-stops -->
    @discardableResult
    public static func explore(
        _ strategy: ExplorationStrategy = .random,
        iterations: Int = 100,
        seed: UInt64 = 0,
        recordsCallSites: Bool = true,
        hopLatency: Duration = .zero,
        hopLatencySpread: Duration = .zero,
        stepLimit: Int = 1_000_000,
        failureLimit: Int = 1,
        interleavesGlobalBlocks: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ body: (TestCoordinator) throws -> Void,
        reportFailure: ((String) -> Void)? = nil,
        reportProgress: ((String) -> Void)? = nil
    ) -> ExplorationReport {
        var driver = ExplorationDriver(
            strategy: strategy, seed: seed, iterations: iterations, stepLimit: stepLimit, failureLimit: failureLimit)
        while let ordering = driver.nextOrdering() {
            let coordinator = TestCoordinator(
                recordsCallSites: recordsCallSites, hopLatency: hopLatency, hopLatencySpread: hopLatencySpread,
                ordering: ordering, stepLimit: stepLimit, interleavesGlobalBlocks: interleavesGlobalBlocks)
            // The body's own locks are watched too: taking one a stopped block holds runs that block on (or stops
            // the program with a message, for a lock a deadlocked run left held) instead of hanging.
            let watcher = interleavesGlobalBlocks ? coordinator.storage.fiberLocks : nil
            let failure = LockObserver.observing(with: watcher) { RunFailure.capture { try body(coordinator) } }
            driver.record(coordinator.outcome(failure, stepLimit: stepLimit))
            // The run is over: what it left pending goes now, as when a coordinator goes (a block that captured the
            // coordinator would otherwise keep it), and a block left parked part-way runs to its end.
            coordinator.storage.close()
            if let progress = driver.takeProgress() { Self.report(progress: progress, to: reportProgress) }
        }
        return report(driver.report, fileID: fileID, line: line, reportFailure: reportFailure)
    }

    /// ``explore(_:iterations:seed:recordsCallSites:hopLatency:hopLatencySpread:stepLimit:failureLimit:interleavesGlobalBlocks:fileID:line:_:reportFailure:reportProgress:)``
    /// for a body that awaits: tasks on the coordinator's contexts, actors on its queues. It runs the body on the caller's
    /// actor (`isolation`), so a `@MainActor` test may call it. A body that does not await takes the synchronous
    /// form, in an async test too.
    @discardableResult
    public static func explore(
        _ strategy: ExplorationStrategy = .random,
        iterations: Int = 100,
        seed: UInt64 = 0,
        recordsCallSites: Bool = true,
        hopLatency: Duration = .zero,
        hopLatencySpread: Duration = .zero,
        stepLimit: Int = 1_000_000,
        failureLimit: Int = 1,
        interleavesGlobalBlocks: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (TestCoordinator) async throws -> Void,
        reportFailure: ((String) -> Void)? = nil,
        reportProgress: ((String) -> Void)? = nil
    ) async -> ExplorationReport {
        var driver = ExplorationDriver(
            strategy: strategy, seed: seed, iterations: iterations, stepLimit: stepLimit, failureLimit: failureLimit)
        while let ordering = driver.nextOrdering() {
            let coordinator = TestCoordinator(
                recordsCallSites: recordsCallSites, hopLatency: hopLatency, hopLatencySpread: hopLatencySpread,
                ordering: ordering, stepLimit: stepLimit, interleavesGlobalBlocks: interleavesGlobalBlocks)
            let failure = await RunFailure.capture(isolation: isolation) { try await body(coordinator) }
            driver.record(coordinator.outcome(failure, stepLimit: stepLimit))
            // The run is over: what it left pending goes now, as when a coordinator goes (a block that captured the
            // coordinator would otherwise keep it), and a block left parked part-way runs to its end.
            coordinator.storage.close()
            if let progress = driver.takeProgress() { Self.report(progress: progress, to: reportProgress) }
        }
        return report(driver.report, fileID: fileID, line: line, reportFailure: reportFailure)
    }

    /// The run's outcome for the driver: its failure (a deadlock or livelock first) and the choices its coordinator
    /// made.
    private func outcome(_ failure: RunFailure.Found?, stepLimit: Int) -> ExplorationDriver.Outcome {
        storage.failRunIfLocksAreStuck()  // blocks still waiting for locks when the body returns
        let made = storage.choicesMade
        var failures = failure.map { [$0] } ?? []
        // A run that failed as a deadlock or livelock is not also checked for hung tasks (nor waited on for them).
        let hung = storage.deadlock == nil && storage.livelock == nil ? hungTasks() : HungTasks()
        if let message = hung.message {
            failures.append(RunFailure.Found(message: "hang: " + message, kind: "a hang"))
        }
        if let deadlock = storage.deadlock {
            failures.insert(
                RunFailure.Found(
                    message: "deadlock: \(deadlock.waits)"
                        + (deadlock.work.map { "; the work that waited: \($0)" } ?? ""),
                    kind: "a deadlock"),
                at: 0)
        }
        if let last = storage.livelock {
            failures.insert(
                RunFailure.Found(
                    message: "livelock: \(stepLimit) pieces of work ran and more were still due; the last ones: "
                        + last.map(\.description).joined(separator: "; "),
                    kind: "a livelock"),
                at: 0)
        }
        let found = RunFailure.Found(failures)
        return ExplorationDriver.Outcome(
            error: found?.message, failureKind: found?.kind, choices: made?.choices ?? [],
            candidateCounts: made?.candidateCounts ?? [], asleep: made?.asleep ?? [], quiet: made?.quietChoices ?? [],
            deviations: made.map { $0.deviations } ?? [], alternatives: made?.alternatives ?? [],
            leftOrderingsOut: storage.timedFromAWindow || storage.runLeftOrderingsOut)
    }

    /// Gives a progress line to `reportProgress`, or, by default, writes it to standard error.
    private static func report(progress: String, to reportProgress: ((String) -> Void)?) {
        if let reportProgress { return reportProgress(progress) }
        StandardError.write(progress + "\n")
    }

    private static func report(
        _ report: ExplorationReport, fileID: StaticString, line: UInt, reportFailure: ((String) -> Void)?
    ) -> ExplorationReport {
        for failure in report.failures {
            if let reportFailure {
                reportFailure(failure.description)
            } else {
                FailureReport.report(failure.description, fileID: fileID, line: line)
            }
        }
        return report
    }
}

extension TestCoordinator {
    /// Declares that work on each of `queues` never interacts with work on another of them: it reads and writes
    /// nothing the others touch. ``ExplorationStrategy/exhaustive`` then skips orderings that differ from one already
    /// run only in the order of such work: a run that tried block A on one queue before block B on another does not
    /// also try B before A, unless something in between may tell them apart. <!-- G-explore-independent -->
    ///
    /// What the coordinator sees it checks for itself: two pieces of work commute only when the one that ran first
    /// scheduled and cancelled nothing (its follow-ups' order would differ otherwise), and when nothing else ran in
    /// between. What it cannot see, the shared state of your own code, is your promise: declare only queues whose work
    /// truly shares nothing, or the exploration may skip the ordering that breaks. Work on the same queue is never
    /// reordered anyway. Random, PCT and replayed runs ignore the declaration. Declarations add up over a run; make
    /// them in the body, before running the coordinator, since each run has a fresh coordinator.
    ///
    /// - Precondition: each of `queues` is a serial queue of this coordinator (``serialQueue(named:type:)``,
    ///   ``main``); otherwise the program stops with a message. <!-- G-explore-misuse-stops -->
    public func declareIndependent(_ queues: Exec...) {
        let simulated = queues.map { context -> SimulatedQueue in
            guard case .custom(let custom) = context,
                let queue = (custom as? SimulatedContext)?.serialQueue(of: storage)
            else {
                fatalError(
                    "ExecTesting: declareIndependent takes this coordinator's serial queues (serialQueue(named:), main); "
                        + "got \(context).")
            }
            return queue
        }
        storage.declareIndependent(simulated)
    }
}

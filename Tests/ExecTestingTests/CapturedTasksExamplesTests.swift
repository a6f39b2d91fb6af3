// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecMutex
import ExecTesting
import Foundation
import Testing

// The article's examples of plain Swift concurrency (FindingOrderingBugs.md, "Plain Swift concurrency"; issue #41):
// code with no ExecKit in it, each with a bug of a shape seen in real code, explored inside `withTasksCaptured`. The
// wrong version of each fails at some ordering; the fixed one passes every ordering.

/// The examples, each with its wrong and fixed version as a body that throws when the run shows the bug.
enum CapturedTasksExample: String, CaseIterable, Sendable, CustomStringConvertible {
    case cancelledReceiver = "A cancelled receiver"
    case reentrantActor = "Reentrancy in a default actor"
    case resumedTwice = "A continuation resumed twice"
    case groupResultsInOrder = "Task group results in order"

    var description: String { rawValue }

    func run(fixed: Bool, _ coordinator: TestCoordinator) throws {
        switch self {
        case .cancelledReceiver: try Self.cancelledReceiver(fixed: fixed, coordinator)
        case .reentrantActor: try Self.reentrantActor(fixed: fixed, coordinator)
        case .resumedTwice: try Self.resumedTwice(fixed: fixed, coordinator)
        case .groupResultsInOrder: try Self.groupResultsInOrder(fixed: fixed, coordinator)
        }
    }

    struct Bug: Error, CustomStringConvertible {
        let description: String
    }

    // MARK: A cancelled receiver (the shape of swift-async-algorithms issue 142)

    /// A one-slot channel written by hand. Its receiver registers a continuation, and a cancel resumes the one
    /// registered. The wrong version forgets the cancel that comes before the continuation is registered: the receiver
    /// then waits for ever, and a later `send` is lost.
    final class Channel: Sendable {
        private let state = LockedBox<(waiting: CheckedContinuation<Int?, Never>?, cancelled: Bool)>((nil, false))
        let fixed: Bool

        init(fixed: Bool) { self.fixed = fixed }

        func send(_ value: Int) {
            state.withLock { state in
                let waiting = state.waiting
                state.waiting = nil
                return waiting
            }?.resume(returning: value)
        }

        /// Resumes a receiver still waiting, so that a run that showed the bug leaks no continuation.
        func close() {
            state.withLock { state in
                defer { state.waiting = nil }
                return state.waiting
            }?.resume(returning: nil)
        }

        func receive() async -> Int? {
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let cancelledAlready = state.withLock { state in
                        if fixed && state.cancelled { return true }
                        state.waiting = continuation
                        return false
                    }
                    if cancelledAlready { continuation.resume(returning: nil) }
                }
            } onCancel: {
                state.withLock { state in
                    state.cancelled = true
                    let waiting = state.waiting
                    state.waiting = nil
                    return waiting
                }?.resume(returning: nil)
            }
        }
    }

    static func cancelledReceiver(fixed: Bool, _ coordinator: TestCoordinator) throws {
        let channel = Channel(fixed: fixed)
        let received = LockedBox<Int??>(nil)
        let returned = coordinator.withTasksCaptured {
            let receiver = Task {
                let value = await channel.receive()
                received.withLock { $0 = .some(value) }
            }
            Task { receiver.cancel() }
            Task { channel.send(1) }
            coordinator.runUntilIdle()
            let returned = received.withLock { $0 } != nil
            // A receiver still waiting is resumed here, inside the capture, and finishes in the coordinator's order:
            // resumed after the call, it would finish on Swift's executor, in a time the run's hang check races.
            channel.close()
            coordinator.runUntilIdle()
            return returned
        }
        guard returned else {
            throw Bug(description: "the cancelled receiver never returned")
        }
    }

    // MARK: Reentrancy in a default actor

    actor Audit {
        var entries = 0
        func record() { entries += 1 }
    }

    /// Each withdrawal checks the balance, awaits an audit, then pays; the fix pays before awaiting.
    actor Account {
        var balance = 100
        let fixed: Bool
        let audit = Audit()

        init(fixed: Bool) { self.fixed = fixed }

        func withdraw(_ amount: Int) async {
            guard balance >= amount else { return }
            if fixed { balance -= amount }
            await audit.record()
            if !fixed { balance -= amount }
        }
    }

    static func reentrantActor(fixed: Bool, _ coordinator: TestCoordinator) throws {
        let account = Account(fixed: fixed)
        let balance = LockedBox(0)
        coordinator.withTasksCaptured {
            Task { await account.withdraw(80) }
            Task { await account.withdraw(80) }
            coordinator.runUntilIdle()
            Task {
                let final = await account.balance
                balance.withLock { $0 = final }
            }
            coordinator.runUntilIdle()
        }
        if balance.withLock({ $0 }) < 0 { throw Bug(description: "overdrawn: \(balance.withLock { $0 })") }
    }

    // MARK: A continuation resumed twice

    /// Bridges a callback API to `async`: the callback resumes the continuation, and so does a cancel. The wrong
    /// version reads the continuation and clears it in two steps, so a cancel that comes between them resumes it
    /// too. (A checked continuation would stop the process; this one counts the second resume and reports it.)
    final class Fetch: Sendable {
        private let state = LockedBox<(continuation: CheckedContinuation<Int, Never>?, resumes: Int)>((nil, 0))
        let fixed: Bool

        init(fixed: Bool) { self.fixed = fixed }

        var resumes: Int { state.withLock { $0.resumes } }

        /// The callback API: calls `completion` from a task of its own.
        static func start(completion: @escaping @Sendable (Int) -> Void) {
            Task { completion(42) }
        }

        func value() async -> Int {
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    state.withLock { $0.continuation = continuation }
                    Self.start { value in self.resume(with: value) }
                }
            } onCancel: {
                resume(with: -1)
            }
        }

        private func resume(with value: Int) {
            if fixed {
                state.withLock { state in
                    defer { state.continuation = nil }
                    return state.continuation
                }?.resume(returning: value)
                return
            }
            // Wrong: reads, then clears, in two steps; what runs in between sees the same continuation.
            guard let continuation = state.withLock({ $0.continuation }) else { return }
            Self.audit { [self] in
                state.withLock { state in
                    state.continuation = nil
                    state.resumes += 1
                    if state.resumes == 1 { continuation.resume(returning: value) }
                }
            }
        }

        /// Logs, then goes on, from a task of its own: the gap between reading and clearing.
        private static func audit(then next: @escaping @Sendable () -> Void) {
            Task { next() }
        }
    }

    static func resumedTwice(fixed: Bool, _ coordinator: TestCoordinator) throws {
        let fetch = Fetch(fixed: fixed)
        coordinator.withTasksCaptured {
            let task = Task { await fetch.value() }
            Task { task.cancel() }
            coordinator.runUntilIdle()
        }
        if fetch.resumes > 1 { throw Bug(description: "resumed \(fetch.resumes) times") }
    }

    // MARK: Task group results in order

    /// Two downloads in a task group; the wrong version takes the results in the order they arrive as the
    /// downloads' order, the fix sorts them by index.
    static func groupResultsInOrder(fixed: Bool, _ coordinator: TestCoordinator) throws {
        let pages = LockedBox<[String]>([])
        coordinator.withTasksCaptured {
            Task {
                let downloaded = await withTaskGroup(of: (Int, String).self) { group in
                    for index in 0..<2 { group.addTask { (index, "page \(index)") } }
                    var results: [(Int, String)] = []
                    for await result in group { results.append(result) }
                    return results
                }
                let ordered = fixed ? downloaded.sorted { $0.0 < $1.0 } : downloaded
                pages.withLock { $0 = ordered.map(\.1) }
            }
            coordinator.runUntilIdle()
        }
        let shown = pages.withLock { $0 }
        if shown != ["page 0", "page 1"] { throw Bug(description: "pages shown as \(shown)") }
    }
}

extension CapturedTasksTests {
    /// Nested in ``CapturedTasksTests``, whose `.serialized` keeps its hook test from running beside these.
    @Suite struct Examples {
        /// Each example's bug is found, and its fix passes every ordering (`exhaustive`, every ordering covered).
        // Guarantees: G-virtual-captured-tasks
        @Test(arguments: CapturedTasksExample.allCases)
        func eachBugIsFoundAndEachFixPassesEveryOrdering(_ example: CapturedTasksExample) throws {
            let wrong = TestCoordinator.explore(.random, iterations: 1_000) {
                try example.run(fixed: false, $0)
            } reportFailure: {
                _ in
            }
            let failure = try #require(wrong.failure, "\(example): random exploration finds the bug")
            // The schedule replays it: the tasks ran in the coordinator's order, not on real threads.
            let replayed = TestCoordinator.explore(.replay(failure.schedule)) {
                try example.run(fixed: false, $0)
            } reportFailure: { _ in
            }
            #expect(replayed.failure?.error == failure.error, "\(example): the schedule replays the failure")
            let fix = TestCoordinator.explore(.exhaustive, iterations: 10_000) { try example.run(fixed: true, $0) }
            #expect(fix.failure == nil, "\(example): \(fix.failure?.description ?? "")")
            #expect(fix.coveredEveryOrdering, "\(example): \(fix.runs) runs")
        }

        /// The article's figures: over 20 seeds, the run at which `random` and `pct(depth: 3)` first fail on each wrong
        /// version, held to issue #41's bars (1,000 and 200 runs). `EXECKIT_PRINT_FIGURES=1` prints the table's rows.
        // Guarantees: G-virtual-captured-tasks-figures
        @Test(arguments: CapturedTasksExample.allCases)
        func eachBugIsFoundWithinTheBarsFromEverySeed(_ example: CapturedTasksExample) {
            func failingRuns(_ strategy: ExplorationStrategy, iterations: Int) -> [Int?] {
                FindingOrderingBugsFigures.seeds.map { seed in
                    TestCoordinator.explore(strategy, iterations: iterations, seed: seed, recordsCallSites: false) {
                        try example.run(fixed: false, $0)
                    } reportFailure: { _ in
                    }.failure?.run
                }
            }
            let random = failingRuns(.random, iterations: 1_000)
            let pct = failingRuns(.pct(depth: 3), iterations: 200)
            #expect(!random.contains(nil), "random, 1,000 runs: \(random)")
            #expect(!pct.contains(nil), "pct(depth: 3), 200 runs: \(pct)")
            if ProcessInfo.processInfo.environment["EXECKIT_PRINT_FIGURES"] != nil {
                let fix = TestCoordinator.explore(.exhaustive, iterations: 10_000) { try example.run(fixed: true, $0) }
                print(
                    "| \(example) | \(FindingOrderingBugsFigures.summary(random)) | "
                        + "\(FindingOrderingBugsFigures.summary(pct)) | \(fix.runs) |")
            }
        }
    }
}

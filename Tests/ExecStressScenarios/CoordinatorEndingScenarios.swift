// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import ExecTesting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue #28's property over the coordinator: random programs of tasks (sleeping, calling an actor), `perform`s,
/// timers on coordinator and derived contexts, and `SerialTaskQueue` operations, each program ended by a random mix of
/// `run(upTo:)`, `stop()` from inside its work, `discardPendingWork()` and dropping the coordinator. Afterwards every
/// task has finished and every object the work captured has been released, checked by weak references (bounded
/// waits: a task that never finishes or a leak fails the program with its seed).
enum CoordinatorEndingScenarios {
    static var all: [StressScenario] {
        [StressScenario("coordinator.endings") { rounds in try await programs(max(20, rounds / 100)) }]
    }

    /// How a program lets go of its coordinator's work.
    private enum Ending: CaseIterable {
        case run, stopFromInside, discard, dropCoordinator
    }

    static func programs(_ count: Int) async throws -> String {
        var endings: [String: Int] = [:]
        for seed in 1...UInt64(count) {
            let ending = try await program(seed: seed)
            endings["\(ending)", default: 0] += 1
        }
        let summary = endings.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        return "\(count) random coordinator programs (\(summary)): every task finished, every capture released"
    }

    private static func program(seed: UInt64) async throws -> Ending {
        var random = SplitMix64(seed: seed ^ 0x454E_4449_4E47)
        func pick(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        let ending = Ending.allCases[pick(Ending.allCases.count)]
        var coordinator: TestCoordinator? = TestCoordinator(
            recordsCallSites: false, hopLatency: pick(2) == 0 ? .zero : .nanoseconds(1))
        var weakCaptures: [WeakCapture] = []
        var tasks: [Task<Void, Never>] = []
        var kinds: [String] = []
        let done = LockedBox<Set<Int>>([])
        var lifetimes: [any Lifetime] = []
        do {
            let coordinator = coordinator!
            let contexts: [Exec] = [
                coordinator.global, coordinator.main, coordinator.serialQueue(named: "q"),
                coordinator.serialQueue(named: "m", type: .mutex), coordinator.global.serialized(),
                coordinator.direct.serialized(), coordinator.main.alwaysAsync(),
            ]
            let names = ["global", "main", "q", "m", "globalSerialized", "directSerialized", "mainAlwaysAsync"]
            // The work captures the clock and contexts, never the coordinator itself (a task that did would keep it, and
            // so all its pending work, alive after the test let go of it).
            let clock = coordinator.clock
            weak let weakCoordinator = coordinator
            let actorContext = coordinator.serialQueue(named: "actor")
            let actor = EndingCounter(context: actorContext)
            let queue = SerialTaskQueue(context: contexts[pick(2)])
            for _ in 0..<(5 + pick(20)) {
                let capture = Capture()
                weakCaptures.append(WeakCapture(capture))
                let contextIndex = pick(contexts.count)
                let context = contexts[contextIndex]
                let name = names[contextIndex]
                let delay = Duration.milliseconds(pick(3_000))
                switch pick(6) {
                case 0:
                    kinds.append("a task on \(name) sleeping \(delay), then calling the actor")
                    tasks.append(
                        context.task {
                            try? await clock.sleep(for: delay)
                            await actor.add(capture)
                        })
                case 1:
                    kinds.append("a perform on \(name)")
                    tasks.append(coordinator.task { _ = await context.perform { capture.id } })
                case 2:
                    lifetimes.append(context.singleTimer(interval: delay) { capture.touch() })
                case 3:
                    lifetimes.append(
                        context.periodicTimer(interval: .milliseconds(1 + pick(500))) {
                            capture.touch()
                            if ending == .stopFromInside && capture.id % 7 == 0 { weakCoordinator?.stop() }
                        })
                case 4:
                    kinds.append("a queue operation sleeping \(delay)")
                    tasks.append(
                        queue.enqueue {
                            try? await clock.sleep(for: delay)
                            capture.touch()
                        })
                default:
                    kinds.append("a queue operation on the actor")
                    tasks.append(queue.enqueue(isolatedTo: actor) { actor in actor.count += capture.id })
                }
            }
        }
        switch ending {
        case .run, .stopFromInside:
            coordinator?.run(upTo: .seconds(5)) { _ in }  // periodic timers reach the bound
        case .discard:
            coordinator?.advance(by: .milliseconds(pick(2_000)))
            coordinator?.discardPendingWork()
        case .dropCoordinator:
            coordinator?.advance(by: .milliseconds(pick(2_000)))
        }
        coordinator = nil
        lifetimes.removeAll()
        let allTasks = tasks
        let finished = await finishes(within: 30) {
            for (index, task) in allTasks.enumerated() {
                await task.value
                done.withLock { _ = $0.insert(index) }
            }
        }
        let unfinished = done.withLock { done in kinds.indices.filter { !done.contains($0) }.map { kinds[$0] } }
        try check(
            finished, "seed \(seed) (\(ending)): a task never finished; the first unfinished: \(unfinished.prefix(3))")
        let leaked = await stillAlive(weakCaptures, within: 10)
        try check(leaked == 0, "seed \(seed) (\(ending)): \(leaked) captured objects were never released")
        return ending
    }

    /// How many of `captures` are still alive after up to `seconds` (polled, without blocking a pool thread).
    private static func stillAlive(_ captures: [WeakCapture], within seconds: Double) async -> Int {
        for _ in 0..<Int(seconds * 1_000) {
            if captures.allSatisfy({ $0.object == nil }) { return 0 }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return captures.filter { $0.object != nil }.count
    }
}

/// An object the program's work captures; its release is what the scenario checks.
private final class Capture: Sendable {
    private static let counter = LockedBox(0)
    let id: Int

    init() {
        id = Self.counter.withLock {
            $0 += 1; return $0
        }
    }

    func touch() {}
}

/// A weak reference to a ``Capture``.
private struct WeakCapture {
    weak var object: Capture?

    init(_ object: Capture) { self.object = object }
}

/// An actor on a coordinator's queue, that the programs' tasks and isolated operations call.
private actor EndingCounter {
    let context: Exec
    nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedSerialExecutor }
    var count = 0

    init(context: Exec) { self.context = context }

    func add(_ capture: Capture) { count += capture.id }
}

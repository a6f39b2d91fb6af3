// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport

/// Tasks started in a serial context (`context.task { }`, so they prefer its task executor) that wait for each other
/// through an actor on the same context (issue #27). Each shape checks a flag on the actor, then waits on a
/// continuation it stores there; any hop between the check and the store lets the signal slip through, and the
/// waiting task then never finishes. Each round is bounded: a hung round fails with its shape and number.
enum ActorWaitScenarios {
    static var all: [StressScenario] {
        contexts.map { stressContext in
            StressScenario("actorWait.\(stressContext.name)") { rounds in
                try await actorWaitRounds(rounds, on: stressContext.make)
            }
        }
            + [
                StressScenario("actorWait.mainActorState") { rounds in
                    try await mainActorRounds(rounds)
                }
            ]
            + mainQueueContexts.map { name, context in
                StressScenario("actorWait.cancelAllBesideASpinner.\(name)") { rounds in
                    try await spinnerRounds(rounds, on: context)
                }
            }
    }

    /// Every serial context an actor can run on, and a context of the user's that hands out a private queue's
    /// serial executor.
    static var contexts: [StressContext] {
        StressContext.serial.filter { $0.name != "customSerial" } + [
            StressContext(
                name: "customWithExecutor", make: { .custom(UserContextWithExecutor()) }, isSerial: true,
                answersIsCurrent: true)
        ]
    }

    /// The four shapes, one per round in turn, each on a new actor (and a new context, where `make` makes one).
    static func actorWaitRounds(_ rounds: Int, on make: @Sendable () -> Exec) async throws -> String {
        for round in 0..<rounds {
            let context = make()
            let shape = ActorWaitShape.allCases[round % ActorWaitShape.allCases.count]
            let finished = await finishes(within: 60) {
                await shape.run(on: context, waiterFirst: round % 8 < 4)
            }
            try check(finished, "round \(round): the \(shape) shape never finished (a task waiting on the actor hung)")
        }
        return "\(rounds) rounds of tasks waiting for each other through an actor on the context (gate, "
            + "semaphore, stream, timer), none hung"
    }

    /// The main-queue contexts a task can start on, for ``spinnerRounds(_:on:)``.
    static let mainQueueContexts: [(name: String, context: Exec)] = [
        ("main", .main), ("mainAsync", .mainAsync), ("mainOrdered", .mainOrdered),
        ("mainQueue", .queue(.main, .serialAsync)),
    ]

    /// swift-async-queue's main-actor cancel test, ported (issue #40, item 1): `cancelAllBesideATaskThatHoldsTheContext`
    /// on `context`. A scenario of its own per context: the spinning task holds the main queue, which nothing else in
    /// the process may need meanwhile.
    static func spinnerRounds(_ rounds: Int, on context: Exec) async throws -> String {
        for round in 0..<rounds {
            let finished = await finishes(within: 60) { await cancelAllBesideATaskThatHoldsTheContext(context) }
            try check(finished, "round \(round): a default actor waited behind a task holding the main queue")
        }
        return "\(rounds) rounds of a CancellableLauncher's tasks on \(context), one spinning until cancelled beside a "
            + "default actor's signal, none hung"
    }

    /// `Exec.main.task { … }` calling into main-actor state: the gate shape on a `@MainActor` class.
    static func mainActorRounds(_ rounds: Int) async throws -> String {
        for round in 0..<rounds {
            let finished = await finishes(within: 60) {
                await ActorWaitShape.runOnMainActorState(waiterFirst: round % 2 == 0)
            }
            try check(finished, "round \(round): a task waiting on main-actor state hung")
        }
        return "\(rounds) rounds of Exec.main tasks waiting for each other through main-actor state, none hung"
    }
}

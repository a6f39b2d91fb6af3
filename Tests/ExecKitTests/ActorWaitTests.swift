// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

/// Issue #27: tasks started in a serial context (`context.task { }`, preferring its task executor) wait for each other
/// through an actor on the same context, and never hang. Before the fix every context below hung in the first round
/// of the gate shape: the runtime hopped inside the actor between its check and its wait. The stress suite repeats
/// these (`actorWait.*`); here each context runs each shape a few times, both ways round; a
/// round stops its test at the first hang, after a bound generous enough for a loaded test run.
// Guarantees: G-task-actor-never-hangs
@Suite struct ActorWaitTests {
    static let contexts: [(name: String, make: @Sendable () -> Exec)] = [
        ("main", { .main }),
        ("mainAsync", { .mainAsync }),
        ("mainOrdered", { .mainOrdered }),
        ("queueMain", { .queue(DispatchQueue.main, .serialAsync) }),
        ("asyncQueue", { .asyncQueue() }),
        ("syncQueue", { .syncQueue() }),
        ("conditionallyAsyncQueue", { .queue(DispatchQueue(label: "conditional"), .conditionallyAsync(true)) }),
        ("serializedDirect", { .direct.serialized() }),
        ("serializedUtility", { .utility.serialized() }),
        ("customWithExecutor", { .custom(UserContextWithExecutor()) }),
    ]

    @Test(arguments: 0..<contexts.count, ActorWaitShape.allCases)
    func tasksWaitingThroughAnActorOnTheirContextFinish(context index: Int, shape: ActorWaitShape) async {
        for round in 0..<8 {
            let context = Self.contexts[index].make()
            let finished = await finishes(within: 120) { await shape.run(on: context, waiterFirst: round % 2 == 0) }
            #expect(finished, "\(shape) on \(Self.contexts[index].name), round \(round): a task never finished")
            if !finished { return }
        }
    }

    @Test func execMainTasksWaitingThroughMainActorStateFinish() async {
        for round in 0..<8 {
            let finished = await finishes(within: 120) {
                await ActorWaitShape.runOnMainActorState(waiterFirst: round % 2 == 0)
            }
            #expect(finished, "round \(round): a task waiting on main-actor state never finished")
            if !finished { return }
        }
    }

    /// The way around what ExecKit cannot fix (the main actor's executor is the runtime's): plain tasks, with no
    /// preference, waiting for each other through main-actor state.
    @Test func plainTasksWaitingThroughMainActorStateFinish() async {
        for round in 0..<8 {
            let finished = await finishes(within: 120) {
                await ActorWaitShape.runOnMainActorState(waiterFirst: round % 2 == 0, launcher: nil)
            }
            #expect(finished, "round \(round): a plain task waiting on main-actor state never finished")
            if !finished { return }
        }
    }

    /// The preference travels with a task that hops in from another ExecKit context's executor: tasks on `.utility`
    /// wait for each other through an actor on a private queue.
    @Test(arguments: ActorWaitShape.allCases)
    func tasksFromAnotherContextWaitingThroughAnActorFinish(shape: ActorWaitShape) async {
        for round in 0..<8 {
            let actorContext = Exec.asyncQueue()
            let finished = await finishes(within: 120) {
                await shape.run(on: actorContext, startingTasksOn: .utility, waiterFirst: round % 2 == 0)
            }
            #expect(finished, "\(shape), round \(round): a task never finished")
            if !finished { return }
        }
    }
}

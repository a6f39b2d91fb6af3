// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Testing

/// Two promises of the concurrency bridge, checked on every kind of serial context (issue #32: each was tested on
/// `asyncQueue()`, and one custom context, only): an actor on the context may assume its isolation in any callback the
/// context runs, and tasks started on the context from one thread start in the order they were started.
@Suite struct SerialContextBridgeTests {
    /// Every serial context ExecKit makes, each kind once.
    static let serialContexts: [Exec] = [
        .main, .mainOrdered, .mainAsync, .asyncQueue(), .syncQueue(),
        .queue(DispatchQueue(label: "bridge.serialAsync"), .serialAsync),
        .queue(DispatchQueue(label: "bridge.mutex"), .mutex),
        .direct.serialized(), .utility.serialized(),
    ]

    /// The three ways a context runs a callback: `invoke`, `invokeAsync` and a timer's handler. In each, an actor whose
    /// executor is the context's is isolated (`assumeIsolated` would stop the test otherwise).
    // Guarantees: G-actor-assume-isolated-callbacks
    @Test(arguments: serialContexts)
    func anActorOnTheContextIsIsolatedInEveryCallback(context: Exec) async {
        let counter = Counter(context: context)
        for way in CallbackWay.allCases {
            let timer = LockedBox<(any Lifetime)?>(nil)
            let counted = await withCheckedContinuation { continuation in
                let callback: @Sendable () -> Void = {
                    let count = counter.assumeIsolated { counter in
                        counter.count += 1
                        return counter.count
                    }
                    continuation.resume(returning: count)
                }
                switch way {
                case .invoke: context.invoke(callback)
                case .invokeAsync: context.invokeAsync(callback)
                case .timer: timer.withLock { $0 = context.singleTimer(interval: .milliseconds(1), handler: callback) }
                }
            }
            timer.withLock { $0 = nil }
            #expect(counted == way.rawValue + 1, "\(context), \(way)")
        }
        #expect(await counter.count == CallbackWay.allCases.count)
    }

    /// Tasks started one after another from one thread start in that order, even when each one's first step is a call
    /// to an actor on the same context (the ordered start onto an actor).
    // Guarantees: G-task-ordered-start
    @Test(arguments: serialContexts)
    func tasksStartedFromOneThreadStartInThatOrder(context: Exec) async {
        let counter = Counter(context: context)
        let started = LockedBox<[Int]>([])
        var tasks: [Task<Void, Never>] = []
        for index in 0..<50 {
            tasks.append(
                context.task {
                    started.withLock { $0.append(index) }
                    await counter.increment()
                })
        }
        for task in tasks { await task.value }
        #expect(started.withLock { $0 } == Array(0..<50), "\(context)")
        #expect(await counter.count == 50)
    }
}

/// How a test has a context run a callback; the raw value is the order the test uses them in.
enum CallbackWay: Int, CaseIterable, CustomStringConvertible {
    case invoke, invokeAsync, timer

    var description: String { ["invoke", "invokeAsync", "a timer"][rawValue] }
}

extension Counter {
    /// Counts one; a call that hops onto the actor's context, for tasks whose first step calls the actor.
    func increment() { count += 1 }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// A tour of ExecKit's Swift Concurrency bridge: run it with `swift run -c release ConcurrencyTour`.
// One context value works in both worlds: as a task executor, as an actor's executor, awaited with `perform`, and as
// the launcher of tasks; `withCallback` turns a callback API into an `async` call. It ends by itself at once.

import ExecKit

/// A store whose state lives on one private serial queue: callback code and actor code share that queue.
actor Store {
    let context = Exec.asyncQueue(label: "tour.store")
    private var items: [String] = []

    /// The actor runs on `context`'s queue.
    nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedSerialExecutor }

    func add(_ item: String) -> Int {
        items.append(item)
        return items.count
    }

    /// A callback API on the same queue, for older callers: it may touch the actor's state synchronously, because a
    /// block on `context` is isolated to the actor.
    nonisolated func count(context callerContext: Exec = .main, completion: @escaping @Sendable (Int) -> Void) {
        context.invoke {
            let count = self.assumeIsolated { $0.items.count }
            callerContext.invoke(completion, with: count)
        }
    }
}

/// Where the caller runs, relative to `context`.
func placeName(_ context: Exec) -> String {
    context.isCurrent ? "in the context" : "elsewhere"
}

@main
struct ConcurrencyTour {
    static func main() async throws {
        // 1. A task whose jobs run in a context, before and after every suspension.
        let worker = Exec.asyncQueue(label: "tour.worker")
        let places = try await worker.task {
            var places = [placeName(worker)]
            try await Task.sleep(for: .milliseconds(1))
            places.append(placeName(worker))
            return places
        }.value
        print("worker.task ran \(places.joined(separator: ", then "))")

        // 2. An actor on a context: its methods run on the context's queue, one at a time.
        let store = Store()
        await withTaskGroup(of: Int.self) { group in
            for item in ["apples", "pears", "plums"] { group.addTask { await store.add(item) } }
        }
        print("the store, through its actor methods, holds \(await store.add("figs")) items")

        // 3. Its callback API on the same queue, awaited through withCallback.
        let counted = try await withCallback { context, completion in
            store.count(context: context, completion: completion)
        }
        print("the store, through its callback API, holds \(counted) items")

        // 4. perform: run a synchronous block in a context and await its value.
        let lock = Exec.syncQueue(label: "tour.lock")
        let insideLock = await lock.perform { lock.isCurrent }
        print("lock.perform ran its block \(insideLock ? "inside the lock" : "outside the lock")")

        // 5. .main and MainActor are one: a .main callback may assume main-actor isolation.
        let isolated = await withCheckedContinuation { continuation in
            Exec.utility.invoke {
                Exec.main.invoke { continuation.resume(returning: MainActor.assumeIsolated { Exec.main.isCurrent }) }
            }
        }
        print(".main callback isolated to MainActor: \(isolated)")
        print("done")
    }
}

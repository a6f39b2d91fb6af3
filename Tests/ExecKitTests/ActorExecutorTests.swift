// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The seeds' `SafeArray`: an actor whose `append` logs "will", works without suspending, then logs "did". On a
/// serial executor two appends never interleave; on an executor that runs jobs inline on whatever thread enqueues
/// them, they do: that is what the executor guarantees.
actor SafeArray {
    private let executor: UnownedSerialExecutor
    private(set) var items: [Int] = []
    let log = LockedBox<[String]>([])

    init(executor: UnownedSerialExecutor) { self.executor = executor }

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor }

    func append(_ item: Int) {
        log.withLock { $0.append("will \(item)") }
        usleep(2_000)  // work that does not suspend: nothing else may run on this actor meanwhile
        items.append(item)
        log.withLock { $0.append("did \(item)") }
    }
}

/// `SafeArray`'s `append` without the array: what runs on the naive executor below. That executor really runs appends
/// at the same time, so an unguarded array there would be a true data race (and fail the Thread Sanitizer run); the
/// locked log alone shows the interleaving.
actor AppendLog {
    private let executor: UnownedSerialExecutor
    let log = LockedBox<[String]>([])

    init(executor: UnownedSerialExecutor) { self.executor = executor }

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor }

    func append(_ item: Int) {
        log.withLock { $0.append("will \(item)") }
        usleep(2_000)
        log.withLock { $0.append("did \(item)") }
    }
}

/// Whether every "will n" is directly followed by "did n".
func neverInterleaves(_ log: [String]) -> Bool {
    stride(from: 0, to: log.count, by: 2).allSatisfy { index in
        index + 1 < log.count && log[index + 1] == log[index].replacingOccurrences(of: "will", with: "did")
    }
}

/// Runs each job at once on a new thread of its own: no mutual exclusion at all. (A thread per job, rather than the
/// enqueuing thread, so the jobs overlap even when the cooperative pool is busy with other tests.)
final class NaiveThreadPerJobExecutor: SerialExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        Thread { job.runSynchronously(on: self.asUnownedSerialExecutor()) }.start()
    }
    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
}

@Suite struct ActorExecutorTests {
    static func appendConcurrently(to array: SafeArray) async {
        await withTaskGroup(of: Void.self) { group in
            for item in 0..<10 { group.addTask { await array.append(item) } }
        }
    }

    // Guarantees: G-actor-serial-executor
    @Test func anActorOnASerialContextNeverInterleaves() async {
        let context = Exec.asyncQueue()
        let array = SafeArray(executor: context.unownedSerialExecutor)
        await Self.appendConcurrently(to: array)
        #expect(await array.items.sorted() == Array(0..<10))
        #expect(neverInterleaves(array.log.withLock { $0 }), "\(array.log.withLock { $0 })")
        withExtendedLifetime(context) {}
    }

    @Test func theSameActorOnANaiveExecutorInterleaves() async {
        let naive = NaiveThreadPerJobExecutor()
        var interleaved = false
        for _ in 0..<3 where !interleaved {  // a few rounds, in case one round's threads happen not to overlap
            let appends = AppendLog(executor: naive.asUnownedSerialExecutor())
            await withTaskGroup(of: Void.self) { group in
                for item in 0..<10 { group.addTask { await appends.append(item) } }
            }
            interleaved = !neverInterleaves(appends.log.withLock { $0 })
        }
        withExtendedLifetime(naive) {}
        #expect(interleaved, "without a serial executor the appends should overlap")
    }

    // Guarantees: G-actor-serial-executor
    @Test func everySerialContextKindIsAnActorExecutor() async {
        for context in [
            Exec.asyncQueue(), .syncQueue(), .direct.serialized(), .utility.serialized(),
            .custom(ConcurrentTestContext()).serialized(),
        ] {
            let array = SafeArray(executor: context.unownedSerialExecutor)
            await Self.appendConcurrently(to: array)
            #expect(neverInterleaves(array.log.withLock { $0 }), "\(context)")
            #expect(await array.items.count == 10)
            withExtendedLifetime(context) {}
        }
    }

    // Guarantees: G-mutexcontext-executor-queued, G-actor-queue-executor
    @Test func theExecutorBelongsToTheContext() {
        let context = Exec.asyncQueue()
        #expect(same(context.unownedSerialExecutor, context.unownedSerialExecutor))
        let serialized = Exec.direct.serialized()
        #expect(same(serialized.unownedSerialExecutor, serialized.unownedSerialExecutor))
        #expect(same(Exec.main.unownedSerialExecutor, MainActor.sharedUnownedExecutor))
        #expect(!same(Exec.asyncQueue().unownedSerialExecutor, context.unownedSerialExecutor))
    }

    /// A callback the context runs outside any task may still assume the actor's isolation: it is on the queue.
    // Guarantees: G-actor-assume-isolated-callbacks
    @Test func assumeIsolatedSucceedsInCallbacksOnTheActorsContext() async {
        let context = Exec.asyncQueue()
        let counter = Counter(context: context)
        let counted = await withCheckedContinuation { continuation in
            context.invoke {
                let value = counter.assumeIsolated { counter in
                    counter.count += 1
                    return counter.count
                }
                continuation.resume(returning: value)
            }
        }
        #expect(counted == 1)
        #expect(await counter.count == 1)
    }

    /// Inside an actor's method the actor's queue counts as entered, even through another queue's `sync`, so that
    /// `isCurrent` answers yes and `invokeSync` on the same context runs inline instead of deadlocking.
    @Test func anActorsMethodsRunInsideItsQueue() async {
        for context in [Exec.asyncQueue(), .syncQueue()] {
            let counter = Counter(context: context)
            let answers = await counter.whereAmI()
            #expect(answers == [true, true], "\(context)")
        }
        let reentering = Counter(context: .asyncQueue())
        #expect(await reentering.countingThroughInvokeSync() == 1)
    }

    /// The queue keeps its executor, not the other way round: once the actor and its context are gone, so is the queue.
    @Test func aQueueIsReleasedWithTheActorThatUsedIt() async {
        let queue = WeakQueue()
        await Self.countOnce(onATemporaryQueueRememberedIn: queue)
        #expect(becomesNil { queue.value }, "the queue must be released with its actor and context")
    }

    private static func countOnce(onATemporaryQueueRememberedIn weakQueue: WeakQueue) async {
        let queue = DispatchQueue(label: "temporary")
        weakQueue.value = queue
        let counter = Counter(context: .queue(queue, .serialAsync))
        #expect(await counter.countingThroughInvokeSync() == 1)
    }

    // Guarantees: G-actor-main-executor
    @Test func anActorOnMainIsIsolatedWithTheMainActor() async {
        let onMain = MainBound()
        #expect(await onMain.runsOnTheMainActor())
    }

    /// A serial context made from the main queue is the main actor's too; on Linux each `DispatchQueue.main` is a new
    /// wrapper, so an executor of its own, kept for the first wrapper, would outlive it.
    // Guarantees: G-actor-main-executor
    @Test func aSerialContextOnTheMainQueueIsTheMainActor() async {
        for type in [ExecutionType.serialAsync, .conditionallyAsync(true)] {
            #expect(same(Exec.queue(.main, type).unownedSerialExecutor, MainActor.sharedUnownedExecutor))
        }
        let counter = Counter(context: .queue(.main, .serialAsync))
        #expect(await counter.runsOnTheMainActor())
    }

    #if os(macOS) || os(Linux) || os(Windows)
    // Guarantees: G-actor-concurrent-no-executor, G-custom-no-serial-executor
    @Test func aConcurrentContextHasNoSerialExecutor() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Exec.utility.unownedSerialExecutor
        }
        #expect(result.standardErrorText.contains("is concurrent, so it cannot be an actor's executor"))
        let suggestion = "Use a serial context: .utility.serialized(), Exec.asyncQueue() or .main."
        #expect(result.standardErrorText.contains(suggestion))
        let custom = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MinimalSerialContext().unownedSerialExecutor
        }
        #expect(custom.standardErrorText.contains("MinimalSerialContext has no serial executor"))
    }
    #endif
}

/// Whether two unowned executors refer to the same executor (the type is not `Equatable`).
func same(_ lhs: UnownedSerialExecutor, _ rhs: UnownedSerialExecutor) -> Bool {
    withUnsafeBytes(of: lhs) { lhs in withUnsafeBytes(of: rhs) { rhs in lhs.elementsEqual(rhs) } }
}

actor Counter {
    let context: Exec
    var count = 0
    init(context: Exec) { self.context = context }
    nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedSerialExecutor }

    /// Whether this actor runs on the main actor (stops the test if it does not).
    func runsOnTheMainActor() -> Bool {
        MainActor.assumeIsolated { Exec.main.isCurrent }
    }

    /// Whether this actor's context is current here, and inside a `sync` on an unrelated queue.
    func whereAmI() -> [Bool] {
        [context.isCurrent, DispatchQueue(label: "unrelated").sync { context.isCurrent }]
    }

    /// Counts once through `invokeSync` on the actor's own (serial, asynchronous) context, from inside a `sync` on an
    /// unrelated queue: only the entered-queue record shows that the actor's queue is held, so without it `invokeSync`
    /// would wait for the queue from inside it, which libdispatch stops as a deadlock.
    func countingThroughInvokeSync() -> Int {
        DispatchQueue(label: "unrelated").sync { context.invokeSync { count += 1 } }
        return count
    }
}

actor MainBound {
    nonisolated var unownedExecutor: UnownedSerialExecutor { Exec.main.unownedSerialExecutor }

    func runsOnTheMainActor() -> Bool {
        MainActor.assumeIsolated { Exec.main.isCurrent }  // would stop the test if not isolated to MainActor
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// Ordered async work from synchronous code (issue #18): a serial context's ordered task starts, and SerialTaskQueue's
// run-to-completion operations, each beside the hand-written queue a user would otherwise reach for: one consumer
// task draining an AsyncStream of operations, the approach of swift-async-queue's FIFOQueue (written here).

import Benchmark
import BenchmarkSupport
import ExecKit

func registerOrderedWorkBenchmarks() {
    let perOperation = Suite.configuration(scalingFactor: .kilo)

    // Submitted from the benchmark's task without awaiting each one, as synchronous code submits; the sample ends
    // when the last operation has run, so every operation's whole cost is inside it.
    Benchmark("SerialTaskQueue.enqueue.runToCompletion", configuration: perOperation) { benchmark async in
        let cell = Cell()
        let queue = SerialTaskQueue(context: Exec.default)
        var last: Task<Void, Never>?
        for _ in benchmark.scaledIterations { last = queue.enqueue { cell.increment() } }
        await last?.value
        blackHole(cell.value)
    }
    Benchmark(
        "SerialTaskQueue.enqueue.runToCompletion (baseline: AsyncStream FIFO queue)", configuration: perOperation
    ) { benchmark async in
        await runThroughStreamFIFOQueue(benchmark.scaledIterations)
    }

    // Operations isolated to an actor (issue #27), on a default actor: each runs on the actor in its turn. The baseline
    // is the same queue's consumer task calling the actor once per operation.
    Benchmark("SerialTaskQueue.enqueue.isolatedTo.runToCompletion", configuration: perOperation) { benchmark async in
        let queue = SerialTaskQueue(context: Exec.default)
        let actor = TallyActor()
        var last: Task<Void, Never>?
        for _ in benchmark.scaledIterations { last = queue.enqueue(isolatedTo: actor) { actor in actor.add() } }
        await last?.value
        blackHole(await actor.count)
    }
    Benchmark(
        "SerialTaskQueue.enqueue.isolatedTo.runToCompletion (baseline: AsyncStream FIFO queue calling the actor)",
        configuration: perOperation
    ) { benchmark async in
        let queue = StreamFIFOQueue()
        let actor = TallyActor()
        for _ in benchmark.scaledIterations { queue.enqueue { await actor.add() } }
        await queue.finish()
        blackHole(await actor.count)
    }

    // Ordered starts only: one task per operation on a private serial queue's executor, started in order.
    Benchmark("Exec.asyncQueue.task.orderedStart", configuration: perOperation) { benchmark async in
        let cell = Cell()
        let context = Exec.asyncQueue()
        var last: Task<Void, Never>?
        for _ in benchmark.scaledIterations { last = context.task { cell.increment() } }
        await last?.value  // the tasks start in order on one serial queue: the last one to start ends last here
        blackHole(cell.value)
    }
    Benchmark("Exec.asyncQueue.task.orderedStart (baseline: AsyncStream FIFO queue)", configuration: perOperation) {
        benchmark async in
        await runThroughStreamFIFOQueue(benchmark.scaledIterations)
    }

    // Bounded concurrency (issue #42): two operations at a time, submitted without awaiting each, beside the
    // hand-written limiter a user would write: an actor counting running operations, with a queue of continuations.
    Benchmark("BoundedTaskQueue.enqueue.twoAtATime", configuration: perOperation) { benchmark async in
        let cell = Cell()
        let queue = BoundedTaskQueue(maxConcurrent: 2, context: Exec.default)
        var tasks: [Task<Void, Never>] = []
        tasks.reserveCapacity(benchmark.scaledIterations.count)
        for _ in benchmark.scaledIterations { tasks.append(queue.enqueue { cell.increment() }) }
        for task in tasks { await task.value }
        blackHole(cell.value)
    }
    Benchmark("BoundedTaskQueue.enqueue.twoAtATime (baseline: actor limiter)", configuration: perOperation) {
        benchmark async in
        let cell = Cell()
        let limiter = ActorLimiter(limit: 2)
        var tasks: [Task<Void, Never>] = []
        tasks.reserveCapacity(benchmark.scaledIterations.count)
        for _ in benchmark.scaledIterations {
            tasks.append(Task { await limiter.run { cell.increment() } })
        }
        for task in tasks { await task.value }
        blackHole(cell.value)
    }
}

/// A hand-written limiter: at most `limit` operations at once, the others waiting in a queue of continuations, an
/// actor keeping the count. (Its starts follow the tasks' arrival, not their submission.)
private actor ActorLimiter {
    private let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) { self.limit = limit }

    func run(_ operation: @Sendable () async -> Void) async {
        if running < limit {
            running += 1
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
        await operation()
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

/// The baseline of both rows: one operation per iteration through a new ``StreamFIFOQueue``, waited for to the last.
private func runThroughStreamFIFOQueue(_ iterations: Range<Int>) async {
    let cell = Cell()
    let queue = StreamFIFOQueue()
    for _ in iterations { queue.enqueue { cell.increment() } }
    await queue.finish()
    blackHole(cell.value)
}

/// A hand-written FIFO queue of async operations: one task awaits each operation of an `AsyncStream` in turn.
final class StreamFIFOQueue: Sendable {
    private let operations: AsyncStream<@Sendable () async -> Void>.Continuation
    private let consumer: Task<Void, Never>

    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: (@Sendable () async -> Void).self)
        operations = continuation
        consumer = Task {
            for await operation in stream { await operation() }
        }
    }

    func enqueue(_ operation: @escaping @Sendable () async -> Void) {
        operations.yield(operation)
    }

    /// Ends the stream and waits for every operation submitted before to finish.
    func finish() async {
        operations.finish()
        await consumer.value
    }
}

/// A default actor that counts calls: what the isolated operations run on.
private actor TallyActor {
    private(set) var count = 0
    func add() { count &+= 1 }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Synchronization
import Testing

/// Every asynchronous context under a flood: 4 producer threads invoke blocks as fast as they can. Each block must run
/// exactly once (none lost, none run twice), and on a serial context each producer's blocks must run in the order
/// that producer invoked them.
///
/// Sizes: 1,000,000 blocks through each context, 250,000 per producer (0.5 to 1 s per context in a debug build).
/// Under the Thread Sanitizer, 100,000 per context, 25,000 per producer: every atomic operation and queue hop costs
/// about ten times more there.
// Guarantees: G-thread-safety-any-thread
@Suite(.serialized) struct InvocationStressTests {
    struct Target: Sendable, CustomTestStringConvertible {
        let name: String
        /// Blocks run one at a time in FIFO order, so each producer's order must be kept.
        let isSerial: Bool
        let makeContext: @Sendable () -> Exec

        var testDescription: String { name }
    }

    static let targets: [Target] = [
        Target(name: ".utility", isSerial: false) { .utility },
        Target(name: ".default", isSerial: false) { .default },
        Target(name: ".mainAsync", isSerial: true) { .mainAsync },
        // Invoked from producer threads, never from the main queue, so `.main` always queues: FIFO there.
        Target(name: ".main", isSerial: true) { .main },
        Target(name: ".mainOrdered", isSerial: true) { .mainOrdered },
        Target(name: "asyncQueue()", isSerial: true) { .asyncQueue() },
        Target(name: ".utility.serialized()", isSerial: true) { Exec.utility.serialized() },
        Target(name: ".custom(concurrent).serialized()", isSerial: true) {
            Exec.custom(ConcurrentTestContext()).serialized()
        },
        Target(name: ".custom(MinimalSerialContext())", isSerial: true) { .custom(MinimalSerialContext()) },
        Target(name: "syncQueue().alwaysAsync()", isSerial: true) { Exec.syncQueue().alwaysAsync() },
    ]

    static let producers = 4
    static let blocksPerContext = isThreadSanitizerActive ? 100_000 : 1_000_000
    static var blocksPerProducer: Int { blocksPerContext / producers }

    @Test(arguments: targets)
    func everyBlockRunsExactlyOnceAndSerialContextsKeepEachProducersOrder(target: Target) {
        let context = target.makeContext()
        #expect(context.type.isSerial == target.isSerial)
        let perProducer = Self.blocksPerProducer
        let tally = InvocationTally(producers: Self.producers, blocksPerProducer: perProducer)
        let checksOrder = target.isSerial
        let produced = runOnThreads(Self.producers) { producer in
            for sequence in 0..<perProducer {
                context.invoke { tally.run(producer: producer, sequence: sequence, checksOrder: checksOrder) }
            }
        }
        #expect(produced, "the producers did not finish invoking")
        let allRan = tally.allRan.wait(timeout: .now() + 60) == .success
        #expect(allRan, "\(tally.remaining.load(ordering: .acquiring)) blocks had not run after 60 s")
        guard produced && allRan else { return }
        let blocks = Self.producers * perProducer
        let notOnce = (0..<blocks).filter { tally.runs.value($0) != 1 }
        #expect(notOnce.isEmpty, "\(notOnce.count) blocks did not run exactly once, the first: \(notOnce.prefix(5))")
        #expect(tally.duplicates.load(ordering: .relaxed) == 0, "some blocks ran twice")
        #expect(tally.outOfOrder.load(ordering: .relaxed) == 0, "a producer's blocks ran out of its order")
    }
}

/// What the blocks of one stress run record: how often each ran, and whether each producer's blocks came in order.
final class InvocationTally: Sendable {
    /// Runs per block, indexed by `producer * blocksPerProducer + sequence`.
    let runs: AtomicCounters
    /// Per producer, the sequence number its next block should carry (checked on serial contexts only).
    let nextSequence: AtomicCounters
    let duplicates = Atomic(0)
    let outOfOrder = Atomic(0)
    let remaining: Atomic<Int>
    /// Signalled once every block has run at least once.
    let allRan = DispatchSemaphore(value: 0)
    let blocksPerProducer: Int

    init(producers: Int, blocksPerProducer: Int) {
        self.blocksPerProducer = blocksPerProducer
        runs = AtomicCounters(count: producers * blocksPerProducer)
        nextSequence = AtomicCounters(count: producers)
        remaining = Atomic(producers * blocksPerProducer)
    }

    func run(producer: Int, sequence: Int, checksOrder: Bool) {
        if runs.increment(producer * blocksPerProducer + sequence) != 1 { duplicates.add(1, ordering: .relaxed) }
        if checksOrder && nextSequence.exchange(producer, sequence + 1) != sequence {
            outOfOrder.add(1, ordering: .relaxed)
        }
        if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { allRan.signal() }
    }
}

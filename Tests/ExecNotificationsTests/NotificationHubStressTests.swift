// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTestSupport
import Synchronization
import Testing

@testable import ExecNotifications

/// Four threads post to one hub as fast as they can while adding and cancelling observers at random, and every
/// guarantee of the hub must hold throughout:
/// - observers alive from before the first post to after the last receive every post, exactly once, and, per poster,
///   in the order that poster made them (each post carries its poster's sequence number);
/// - an observer on a serial context never runs after `cancel()` returned inside that context (each cancellation runs
///   there as `observation.cancel(); mark()`, and the block, also there, checks the mark);
/// - an observer whose context is not `.direct` receives one post at a time, even on a concurrent context.
///
/// The random choices come from fixed seeds, one per thread; what the threads interleave still varies between runs.
// Guarantees: G-thread-safety-any-thread
@Suite struct NotificationHubStressTests {
    static let posters = 4
    /// 40,000 posts in all, each to the 7 long-lived observers and a few dozen short-lived ones: 2.5 s in a debug build
    /// on an idle machine, 7 s while other builds share its two cores. Under the Thread Sanitizer, 2,500 per thread
    /// (2 to 6.5 s): each post and delivery costs about ten times more there.
    static let postsPerPoster = isThreadSanitizerActive ? 2_500 : 10_000
    /// Contexts of the observers that live through the whole storm.
    static let longLivedContexts: [Exec] = [
        .direct, .utility, .main, .asyncQueue(), .syncQueue(), .direct.serialized(), .custom(SerialQueueContext()),
    ]

    // Guarantees: G-hub-post-order, G-hub-cancel-no-start
    @Test func stormsOfPostsAddsAndCancelsKeepEveryGuarantee() {
        let hub = NotificationHub()
        let expected = Self.posters * Self.postsPerPoster
        let watchers = Self.longLivedContexts.map { Watcher(context: $0, posters: Self.posters, expected: expected) }
        let observations = watchers.map { watcher in
            hub.addObserver(for: .stamp, context: watcher.context) { watcher.receive($0) }
        }
        let storm = StormState()
        let postsPerPoster = Self.postsPerPoster
        let finished = runOnThreads(Self.posters) { poster in
            Self.storm(hub: hub, poster: poster, posts: postsPerPoster, state: storm)
        }
        #expect(finished, "the posting threads did not finish")
        for (index, watcher) in watchers.enumerated() {
            let complete = watcher.complete.wait(timeout: .now() + 30) == .success
            #expect(complete, "observer \(index) (\(watcher.context)) received \(watcher.received) of \(expected)")
        }
        #expect(storm.waitForCancellations(), "cancellations queued in their contexts did not all run")
        // Lets anything still queued in the transient observers' contexts run, so a delivery after cancel shows.
        for context in storm.transientContexts { context.invokeSync {} }
        for context in Self.longLivedContexts where !context.type.isImmediate { context.invokeSync {} }
        for (index, watcher) in watchers.enumerated() {
            let report = watcher.report()
            #expect(report.received == expected, "observer \(index) (\(watcher.context)) got extra deliveries")
            #expect(report.outOfOrder == 0, "observer \(index) (\(watcher.context)) got a poster's posts out of order")
            #expect(report.overlapped == 0, "observer \(index) (\(watcher.context)) ran two deliveries at once")
        }
        #expect(storm.addedTransient.load(ordering: .relaxed) > 0)
        #expect(storm.deliveredAfterCancel.load(ordering: .relaxed) == 0, "a block ran after its cancel() returned")
        #expect(
            storm.transientOutOfOrder.load(ordering: .relaxed) == 0, "a transient observer's posts came out of order")
        #expect(storm.ranOutsideContext.load(ordering: .relaxed) == 0, "a block ran outside its serial context")
        for observation in observations { observation.cancel() }
        #expect(hub.observerCount(for: .stamp) == 0, "observers were left in the hub")
    }

    /// One thread's storm: each step posts, and sometimes adds an observer on a serial context, cancels one of this
    /// thread's from inside its context, or adds and at once cancels a throwaway observer.
    private static func storm(hub: NotificationHub, poster: Int, posts: Int, state: StormState) {
        var random = SplitMix64(seed: 0x5374_6F72_6D00 + UInt64(poster))
        var alive: [TransientObserver] = []
        for sequence in 0..<posts {
            hub.post(.stamp, payload: Stamp(poster: poster, sequence: sequence))
            switch random.next() % 16 {
            case 0, 1:
                guard alive.count < 16 else { break }
                let context = state.transientContexts[Int(random.next() % UInt64(state.transientContexts.count))]
                alive.append(TransientObserver(hub: hub, context: context, posters: posters, state: state))
            case 2, 3:
                guard !alive.isEmpty else { break }
                alive.remove(at: Int(random.next() % UInt64(alive.count))).cancelInsideContext()
            case 4:
                let context: Exec = random.next() % 2 == 0 ? .direct : .utility
                hub.addObserver(for: .stamp, context: context) { _ in }.cancel()
            default:
                break
            }
            if sequence % 32 == 31 {
                // Back-pressure: the transient contexts are serial queues that run every delivery to dozens of
                // observers, slower than four threads can post. Left alone, their backlog grows without bound, and
                // with it the delay before a queued cancellation runs: observers would pile up in the hub and the
                // storm would slow down quadratically. Waiting for them keeps the backlog (and the delay) short.
                for context in state.transientContexts { context.invokeSync {} }
            }
        }
        for observer in alive { observer.cancelInsideContext() }
    }
}

/// What a post carries: who made it, and its place among that poster's posts.
struct Stamp: Sendable {
    var poster: Int
    var sequence: Int
}

extension NotificationName where Payload == Stamp {
    static let stamp = NotificationName("test.stress.stamp")
}

/// An observer alive through the whole storm: counts what it receives and checks each poster's order.
private final class Watcher: Sendable {
    struct Report {
        var next: [Int]
        var received = 0
        var outOfOrder = 0
        var overlapped = 0
    }

    let context: Exec
    private let expected: Int
    private let state: LockedBox<Report>
    /// Relaxed on purpose: an acquiring or releasing check would order the deliveries and hide a race from the
    /// Thread Sanitizer.
    private let inside = Atomic(false)
    private let checksOverlap: Bool
    /// Signalled when the expected number of posts has arrived.
    let complete = DispatchSemaphore(value: 0)

    init(context: Exec, posters: Int, expected: Int) {
        self.context = context
        self.expected = expected
        state = LockedBox(Report(next: Array(repeating: 0, count: posters)))
        if case .direct = context { checksOverlap = false } else { checksOverlap = true }
    }

    func receive(_ stamp: Stamp) {
        let overlapping = checksOverlap && inside.exchange(true, ordering: .relaxed)
        let done = state.withLock { report in
            if overlapping { report.overlapped += 1 }
            if stamp.sequence != report.next[stamp.poster] { report.outOfOrder += 1 }
            report.next[stamp.poster] = stamp.sequence + 1
            report.received += 1
            return report.received == expected
        }
        if checksOverlap && !overlapping { inside.store(false, ordering: .relaxed) }
        if done { complete.signal() }
    }

    var received: Int { state.withLock { $0.received } }

    func report() -> Report { state.withLock { $0 } }
}

/// Shared by the storm threads: the serial contexts of short-lived observers, and what those observers saw.
private final class StormState: Sendable {
    let transientContexts: [Exec] = [.asyncQueue(), .custom(SerialQueueContext()), Exec.utility.serialized()]
    let addedTransient = Atomic(0)
    let deliveredAfterCancel = Atomic(0)
    let transientOutOfOrder = Atomic(0)
    let ranOutsideContext = Atomic(0)
    /// Cancellations handed to a context that have not run yet.
    private let pendingCancellations = Atomic(0)

    func cancellationQueued() { pendingCancellations.add(1, ordering: .relaxed) }
    func cancellationRan() { pendingCancellations.subtract(1, ordering: .releasing) }

    /// Waits until every queued cancellation has run; polls, since none of them knows it is the last.
    func waitForCancellations() -> Bool {
        eventually { pendingCancellations.load(ordering: .acquiring) == 0 }
    }
}

/// An observer added during the storm on a serial context, cancelled from inside that context.
private final class TransientObserver: @unchecked Sendable {
    // Unchecked: `isCancelled` and `next` are read and written only by blocks running in `context`, which is serial;
    // `observation` is set once, before anything else can see this object.
    private let context: Exec
    private let state: StormState
    private var isCancelled = false
    /// Per poster, the lowest sequence number the next delivery may carry: this observer joined mid-storm, so it
    /// sees each poster's posts from some point on, in increasing order.
    private var next: [Int]
    private var observation: (any Lifetime)?

    init(hub: NotificationHub, context: Exec, posters: Int, state: StormState) {
        self.context = context
        self.state = state
        next = Array(repeating: 0, count: posters)
        state.addedTransient.add(1, ordering: .relaxed)
        // The block captures this object, and this object keeps the observation: a cycle until cancelled.
        observation = hub.addObserver(for: .stamp, context: context) { self.received($0) }
    }

    private func received(_ stamp: Stamp) {
        if !context.isCurrent { state.ranOutsideContext.add(1, ordering: .relaxed) }
        if isCancelled { state.deliveredAfterCancel.add(1, ordering: .relaxed) }
        if stamp.sequence < next[stamp.poster] { state.transientOutOfOrder.add(1, ordering: .relaxed) }
        next[stamp.poster] = stamp.sequence + 1
    }

    /// Queues, in the observer's context, `cancel()` followed by the mark its block checks.
    func cancelInsideContext() {
        state.cancellationQueued()
        context.invoke {
            if !self.context.isCurrent { self.state.ranOutsideContext.add(1, ordering: .relaxed) }
            self.observation?.cancel()
            self.isCancelled = true
            self.observation = nil
            self.state.cancellationRan()
        }
    }
}

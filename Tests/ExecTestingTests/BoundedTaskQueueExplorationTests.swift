// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecMutex
import ExecTesting
import Testing

/// `BoundedTaskQueue` in virtual time and under exploration (issue #42, item 1): a hand-written limiter that checks
/// its count and takes a place in two steps lets a third download run beside two; the queue never does, in any
/// ordering.
@Suite struct BoundedTaskQueueExplorationTests {
    struct TooMany: Error, CustomStringConvertible {
        let most: Int
        var description: String { "\(most) downloads ran at once" }
    }

    /// Counts the downloads running, and the most at once.
    final class Downloads: Sendable {
        private let state = LockedBox((running: 0, most: 0))
        func begin() {
            state.withLock { state in
                state.running += 1
                state.most = max(state.most, state.running)
            }
        }
        func end() { state.withLock { $0.running -= 1 } }
        var most: Int { state.withLock { $0.most } }
    }

    /// The newcomer's limiter: at most `limit` at once, it means. It checks the count, logs, then counts itself in:
    /// a download that checks while another is logging sees the same free place.
    final class HandWrittenLimiter: Sendable {
        private let running = LockedBox(0)
        let limit: Int
        init(limit: Int) { self.limit = limit }

        func run(_ body: () async -> Void) async {
            while running.withLock({ $0 >= limit }) { await Task.yield() }
            await Task.yield()  // "starting download": a log line, a hop to another context
            running.withLock { $0 += 1 }
            await body()
            running.withLock { $0 -= 1 }
        }
    }

    static func download(_ downloads: Downloads) async {
        downloads.begin()
        await Task.yield()  // the transfer
        downloads.end()
    }

    // Guarantees: G-btq-virtual-time
    @Test func aHandWrittenLimitersRaceIsFoundAndTheQueueKeepsTheLimitInEveryOrdering() throws {
        let racy = TestCoordinator.explore(.random, iterations: 1_000) { coordinator in
            let downloads = Downloads()
            let limiter = HandWrittenLimiter(limit: 2)
            for _ in 0..<3 { coordinator.task { await limiter.run { await Self.download(downloads) } } }
            coordinator.runUntilIdle()
            if downloads.most > 2 { throw TooMany(most: downloads.most) }
        } reportFailure: { _ in
        }
        let failure = try #require(racy.failure, "the hand-written limiter's race is found")
        #expect(failure.error == "3 downloads ran at once")

        let fixed = TestCoordinator.explore(.exhaustive, iterations: 10_000) { coordinator in
            let downloads = Downloads()
            let queue = BoundedTaskQueue(maxConcurrent: 2, context: coordinator)
            for _ in 0..<3 { queue.enqueue { await Self.download(downloads) } }
            coordinator.runUntilIdle()
            if downloads.most > 2 { throw TooMany(most: downloads.most) }
        }
        #expect(fixed.failure == nil)
        #expect(fixed.coveredEveryOrdering, "\(fixed.runs) runs")
    }

    /// In virtual time: two downloads of 3 s and two of 1 s, two at a time, start at 0, 0, 1 and 2 s.
    // Guarantees: G-btq-virtual-time, G-btq-bounded-fifo
    @Test func operationsStartInTurnInVirtualTime() {
        let coordinator = TestCoordinator()
        let queue = BoundedTaskQueue(maxConcurrent: 2, context: coordinator)
        let starts = LockedBox<[Int: Double]>([:])
        for (index, seconds) in [3, 1, 1, 3].enumerated() {
            queue.enqueue {
                starts.withLock { $0[index] = coordinator.elapsed.seconds }
                try? await coordinator.clock.sleep(for: .seconds(seconds))
            }
        }
        coordinator.advance(by: .seconds(10))
        #expect(starts.withLock { $0 } == [0: 0, 1: 0, 2: 1, 3: 2])
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

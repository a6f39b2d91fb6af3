// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecNotifications
import ExecTestSupport
import Synchronization
import Testing

/// `notifications(for:)` may be called on any thread: streams made on several threads at once, while other threads
/// post, are each registered when the call returns, so each receives every post its own thread makes afterwards, and
/// the final post, exactly once.
@Suite struct StreamAnyThreadTests {
    static let name = NotificationName<Int>("StreamAnyThreadTests.value")
    static let end = -1
    static let noise = 0

    // Guarantees: G-hub-stream-any-thread
    @Test func streamsMadeOnManyThreadsWhileOthersPostMissNothingPostedAfterwards() async {
        // Small under the Thread Sanitizer, where every access costs several times more.
        let makers = isThreadSanitizerActive ? 3 : 6
        let streamsPerMaker = isThreadSanitizerActive ? 10 : 30
        let posters = 2
        for round in 0..<(isThreadSanitizerActive ? 2 : 4) {
            let hub = NotificationHub()
            let streams = LockedBox<[Int: AsyncStream<Int>]>([:])
            let makersLeft = Atomic(makers)
            let finished = runOnThreads(makers + posters) { thread in
                guard thread < makers else {
                    // Posts while the streams are being made, until every maker is done (bounded).
                    for _ in 0..<2_000 where makersLeft.load(ordering: .relaxed) > 0 {
                        hub.post(Self.name, payload: Self.noise)
                    }
                    return
                }
                for index in 0..<streamsPerMaker {
                    let id = thread * streamsPerMaker + index
                    let stream = hub.notifications(for: Self.name)
                    streams.withLock { $0[id] = stream }
                    // A marker per stream, posted after it was made: it reaches that stream and every later one of
                    // this thread.
                    hub.post(Self.name, payload: id + 1)
                }
                makersLeft.subtract(1, ordering: .relaxed)
            }
            #expect(finished, "round \(round): a thread did not finish")
            hub.post(Self.name, payload: Self.end)

            let made = streams.withLock { $0 }
            #expect(made.count == makers * streamsPerMaker)
            let received = await Self.markers(in: made)
            for id in made.keys.sorted() {
                let markers = received[id] ?? []
                let thread = id / streamsPerMaker
                let own = (id..<((thread + 1) * streamsPerMaker)).map { $0 + 1 }
                let fromOwnThread = markers.filter { $0 != Self.end && ($0 - 1) / streamsPerMaker == thread }
                #expect(markers.last == Self.end, "round \(round): stream \(id) missed the final post")
                #expect(fromOwnThread == own, "round \(round): stream \(id) missed its thread's later posts")
                #expect(Set(markers).count == markers.count, "round \(round): stream \(id) got a post twice")
            }
            withExtendedLifetime(hub) {}
        }
    }

    /// The markers (everything but noise) each stream buffered, up to and including the final post, read all at once.
    /// A stream that missed the final post would wait forever: a watchdog ends every wait (cancelling the iteration
    /// ends it) after a generous bound for them all, and the caller's check of the last marker then fails.
    private static func markers(in streams: [Int: AsyncStream<Int>]) async -> [Int: [Int]] {
        let reader = Task {
            await withTaskGroup(of: (Int, [Int]).self) { group in
                for (id, stream) in streams {
                    group.addTask {
                        var markers: [Int] = []
                        for await value in stream where value != noise {
                            markers.append(value)
                            if value == end { break }
                        }
                        return (id, markers)
                    }
                }
                var received: [Int: [Int]] = [:]
                for await (id, markers) in group { received[id] = markers }
                return received
            }
        }
        let watchdog = Task {
            try? await Task.sleep(for: .seconds(30))
            reader.cancel()
        }
        let received = await reader.value
        watchdog.cancel()
        return received
    }
}

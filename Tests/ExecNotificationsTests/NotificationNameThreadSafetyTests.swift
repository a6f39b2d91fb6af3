// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecNotifications
import ExecTestSupport
import Testing

/// Notification names may be created and used on any thread: names made at the same time on several threads, from
/// strings no name used before, are equal exactly when their strings (and payload types) are, and a name made on one
/// thread reaches the observers registered with an equal name made on another.
@Suite struct NotificationNameThreadSafetyTests {
    // Guarantees: G-hub-name-any-thread
    @Test func namesCreatedConcurrentlyAreEqualExactlyWhenTheirStringsAre() {
        // Small under the Thread Sanitizer, where every access costs several times more.
        let threads = isThreadSanitizerActive ? 4 : 8
        let strings = isThreadSanitizerActive ? 100 : 400
        for round in 0..<(isThreadSanitizerActive ? 2 : 5) {
            // Fresh strings each round, so that every thread races to create them first.
            let prefix = "NotificationNameThreadSafetyTests.\(round).\(UInt64.random(in: 0...UInt64.max))."
            let made = (0..<threads).map { _ in LockedBox<[NotificationName<Int>]>([]) }
            let madeAsText = (0..<threads).map { _ in LockedBox<[NotificationName<String>]>([]) }
            let finished = runOnThreads(threads) { thread in
                var names: [NotificationName<Int>] = []
                var textNames: [NotificationName<String>] = []
                names.reserveCapacity(strings)
                for index in 0..<strings {
                    names.append(NotificationName<Int>(prefix + String(index)))
                    textNames.append(NotificationName<String>(prefix + String(index)))
                }
                made[thread].withLock { $0 = names }
                madeAsText[thread].withLock { $0 = textNames }
            }
            #expect(finished, "round \(round): a thread did not finish")
            let reference = made[0].withLock { $0 }
            #expect(Set(reference).count == strings, "round \(round): different strings gave equal names")
            #expect(Set(madeAsText[0].withLock { $0 }).count == strings, "round \(round): the same for String payloads")
            for thread in 1..<threads {
                #expect(made[thread].withLock { $0 } == reference, "round \(round): thread \(thread) disagrees")
                #expect(
                    madeAsText[thread].withLock { $0 } == madeAsText[0].withLock { $0 },
                    "round \(round): thread \(thread) disagrees on String names")
            }
            #expect(reference.map(\.rawValue) == (0..<strings).map { prefix + String($0) })
        }
    }

    /// A hub keys observers by name: an observer added with a name made on one thread receives the posts made with the
    /// equal names that other threads made at the same time.
    // Guarantees: G-hub-name-any-thread
    @Test func aNameMadeOnOneThreadReachesObserversOfEqualNamesMadeOnOthers() {
        let threads = isThreadSanitizerActive ? 4 : 8
        for round in 0..<(isThreadSanitizerActive ? 10 : 50) {
            // A fresh string each round, which every thread turns into a name at once, first thing.
            let string = "NotificationNameThreadSafetyTests.post.\(round).\(UInt64.random(in: 0...UInt64.max))"
            let names = LockedBox<[Int: NotificationName<Int>]>([:])
            let made = runOnThreads(threads) { thread in
                let name = NotificationName<Int>(string)
                names.withLock { $0[thread] = name }
            }
            #expect(made)
            let hub = NotificationHub()
            let received = LockedBox<[Int]>([])
            let byThread = names.withLock { $0 }
            guard let observed = byThread[0] else { continue }
            let observation = hub.addObserver(for: observed) { value in received.withLock { $0.append(value) } }
            for (thread, name) in byThread { hub.post(name, payload: thread) }
            #expect(received.withLock { $0 }.sorted() == Array(0..<threads), "round \(round): a post was lost")
            withExtendedLifetime(observation) {}
        }
    }
}

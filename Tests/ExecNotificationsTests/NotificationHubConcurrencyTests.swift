// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import XCTest

@testable import ExecNotifications

final class NotificationHubConcurrencyTests: XCTestCase {
    /// Posts from many threads while others add and cancel observers of the same name: the live observers receive
    /// every post, exactly once.
    // Guarantees: G-thread-safety-any-thread
    func testConcurrentPostsAddsAndCancelsLoseNoDeliveryToLiveObservers() {
        let hub = NotificationHub()
        let direct = Counter()
        let queued = Counter()
        let directObservation = hub.addObserver(for: .number) { _ in direct.increment() }
        let queuedObservation = hub.addObserver(for: .number, context: .utility) { _ in queued.increment() }
        let posters = 4
        let postsEach = 2_000
        let churners = 2
        DispatchQueue.concurrentPerform(iterations: posters + churners) { index in
            if index < posters {
                for value in 0..<postsEach { hub.post(.number, payload: value) }
            } else {
                for round in 0..<500 {
                    let lifetime = hub.addObserver(for: .number, context: round % 2 == 0 ? .direct : .default) { _ in }
                    if round % 3 == 0 { hub.post(.number, payload: -1) }
                    lifetime.cancel()
                }
            }
        }
        let expected = posters * postsEach + churners * 167  // each churner posts on rounds 0, 3, …, 498
        XCTAssertEqual(direct.value, expected)
        waitUntil { queued.value == expected }
        XCTAssertEqual(queued.value, expected)
        XCTAssertEqual(hub.observerCount(for: .number), 2)
        withExtendedLifetime((directObservation, queuedObservation)) {}
    }

    // Guarantees: G-hub-cancel-no-start
    func testConcurrentCancelAndPostNeverRunACancelledAsynchronousObserverLater() {
        for _ in 0..<200 {
            let hub = NotificationHub()
            let queue = DispatchQueue(label: "test.race")
            let calls = Counter()
            let observation = hub.addObserver(for: .number, context: .queue(queue, .serialAsync)) { _ in
                calls.increment()
            }
            let poster = DispatchQueue(label: "test.poster")
            poster.async { for value in 0..<50 { hub.post(.number, payload: value) } }
            observation.cancel()
            // cancel() does not wait: at most the one call already taken from the mailbox may still run.
            let callsWhenCancelReturned = calls.value
            flush(poster)
            flush(queue)
            XCTAssertLessThanOrEqual(
                calls.value, callsWhenCancelReturned + 1, "a block started after cancel() returned")
        }
    }

    /// A post that starts a drain on its own thread (a mutex context runs it inline, under the lock) runs the jobs it
    /// found pending and hands later ones off: it must not keep running another thread's posts for as long as that
    /// thread keeps posting.
    // Guarantees: G-hub-drain-bounded, G-hub-post-order
    func testPostReturnsWhileAnotherThreadKeepsPostingToAMutexContextObserver() {
        let hub = NotificationHub()
        let received = Recorder<Int>()
        let firstStarted = DispatchSemaphore(value: 0)
        let othersQueued = DispatchSemaphore(value: 0)
        let observation = hub.addObserver(for: .number, context: Exec.direct.serialized()) { value in
            received.append(value)
            if value == 0 {
                firstStarted.signal()
                _ = othersQueued.wait(timeout: .now() + 10)  // let the other thread queue posts behind this one
            } else {
                usleep(200)  // slower than the other thread posts: a drain that took everything would not end
            }
        }
        let postReturned = Flag()
        let otherPostCount = LockedBox(0)
        let otherDone = DispatchSemaphore(value: 0)
        let deadline = DispatchTime.now() + 10
        DispatchQueue.global().async {
            defer { otherDone.signal() }
            guard firstStarted.wait(timeout: deadline) == .success else { return }
            var value = 1
            while !postReturned.isSet && DispatchTime.now() < deadline {
                hub.post(.number, payload: value)
                if value == 10 { othersQueued.signal() }
                otherPostCount.withLock { $0 = value }
                value += 1
                usleep(50)
            }
        }
        let start = DispatchTime.now()
        hub.post(.number, payload: 0)  // starts the drain on this thread
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        postReturned.set()
        XCTAssertEqual(otherDone.wait(timeout: .now() + 20), .success, "the other poster did not stop")
        XCTAssertLessThan(elapsed, 5, "post kept draining the other thread's posts")
        let total = otherPostCount.withLock { $0 }
        XCTAssertGreaterThanOrEqual(total, 10)
        waitUntil { received.count == total + 1 }
        XCTAssertEqual(received.values, Array(0...total), "every post arrives, in post order")
        withExtendedLifetime(observation) {}
    }

    /// Posts read the observer table without a lock while other threads replace it: run under the address and thread
    /// sanitizers, this catches a table or an observer released while a post still reads it.
    // Guarantees: G-thread-safety-any-thread
    func testPostsWhileObserversOfTheSameNameComeAndGo() {
        let hub = NotificationHub()
        let calls = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            if index % 2 == 0 {
                for value in 0..<5_000 { hub.post(.number, payload: value) }
            } else {
                for _ in 0..<1_500 {
                    let touched = Counter()  // released with the observer; a late call would touch freed memory
                    let lifetime = hub.addObserver(for: .number) { _ in
                        touched.increment(); calls.increment()
                    }
                    hub.post(.number, payload: -1)
                    lifetime.cancel()
                }
            }
        }
        XCTAssertGreaterThanOrEqual(calls.value, 2 * 1_500)  // each churner's own post reaches its live observer
        XCTAssertEqual(hub.observerCount(for: .number), 0)
    }
}

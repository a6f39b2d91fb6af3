// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import XCTest

@testable import ExecNotifications

final class NotificationHubCancellationTests: XCTestCase {
    func testCancelStopsDirectDeliveryAndRemovesTheObserver() {
        let hub = NotificationHub()
        let received = Recorder<Int>()
        var observation = hub.addObserver(for: .number) { received.append($0) }
        hub.post(.number, payload: 1)
        observation.cancel()
        hub.post(.number, payload: 2)
        XCTAssertEqual(received.values, [1])
        XCTAssertEqual(hub.observerCount(for: .number), 0)
        observation.cancel()  // idempotent
    }

    func testReleasingTheLifetimeEndsTheObservation() {
        let hub = NotificationHub()
        let received = Recorder<Int>()
        var observation: (any Lifetime)? = hub.addObserver(for: .number) { received.append($0) }
        hub.post(.number, payload: 1)
        XCTAssertNotNil(observation)
        observation = nil
        hub.post(.number, payload: 2)
        XCTAssertEqual(received.values, [1])
        XCTAssertEqual(hub.observerCount(for: .number), 0)
    }

    func testCancelDropsDeliveriesAlreadyQueuedOnAnAsynchronousContext() {
        let hub = NotificationHub()
        let queue = DispatchQueue(label: "test.queued")
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        let received = Recorder<Int>()
        var observation = hub.addObserver(for: .number, context: .queue(queue, .serialAsync)) { received.append($0) }
        for value in 1...3 { hub.post(.number, payload: value) }  // queued behind the gate
        observation.cancel()
        gate.signal()
        flush(queue)
        XCTAssertEqual(received.values, [])
    }

    func testCancelFromAnotherThreadWaitsForTheRunningBlock() {
        let hub = NotificationHub()
        let queue = DispatchQueue(label: "test.running")
        let started = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let finished = Flag()
        let observation = hub.addObserver(for: .number, context: .queue(queue, .serialAsync)) { _ in
            started.signal()
            gate.wait()
            finished.set()
        }
        hub.post(.number, payload: 1)
        hub.post(.number, payload: 2)  // queued behind the running block: must never start
        started.wait()
        let cancelReturned = DispatchSemaphore(value: 0)
        let finishedWhenCancelReturned = Flag()
        DispatchQueue.global().async {
            var observation = observation
            observation.cancel()
            if finished.isSet { finishedWhenCancelReturned.set() }
            cancelReturned.signal()
        }
        // While the block is held at the gate, cancel() must not return (a wrong implementation returns at once).
        XCTAssertEqual(cancelReturned.wait(timeout: .now() + 0.2), .timedOut)
        gate.signal()
        cancelReturned.wait()
        XCTAssertTrue(finishedWhenCancelReturned.isSet)
        flush(queue)
        XCTAssertFalse(started.wait(timeout: .now()) == .success, "the queued second delivery started")
    }

    func testCancelFromInsideTheBlockReturnsAndStopsLaterDeliveries() {
        let hub = NotificationHub()
        let queue = DispatchQueue(label: "test.self-cancel")
        let received = Recorder<Int>()
        let holder = LockedBox<(any Lifetime)?>(nil)
        let observation = hub.addObserver(for: .number, context: .queue(queue, .serialAsync)) { value in
            received.append(value)
            if var observation = holder.withLock({ $0 }) { observation.cancel() }  // would deadlock if it waited
        }
        holder.withLock { $0 = observation }
        queue.sync {
            for value in 1...3 { hub.post(.number, payload: value) }  // all three queued before the first runs
        }
        flush(queue)
        XCTAssertEqual(received.values, [1])
        XCTAssertEqual(hub.observerCount(for: .number), 0)
        holder.withLock { $0 = nil }
    }

    func testDirectObserverCancelledFromAnotherThreadIsNotCalledByLaterPosts() {
        let hub = NotificationHub()
        let received = Counter()
        let observation = hub.addObserver(for: .number) { _ in received.increment() }
        let cancelled = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {  // not `sync`, which would run the block on this thread
            var observation = observation
            observation.cancel()
            cancelled.signal()
        }
        cancelled.wait()
        hub.post(.number, payload: 1)
        XCTAssertEqual(received.value, 0)
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import XCTest

@testable import ExecNotifications

final class NotificationHubCancellationTests: XCTestCase {
    // Guarantees: G-hub-cancel-no-start
    func testCancelStopsDirectDeliveryAndRemovesTheObserver() {
        let hub = NotificationHub()
        let received = Recorder<Int>()
        let observation = hub.addObserver(for: .number) { received.append($0) }
        hub.post(.number, payload: 1)
        observation.cancel()
        hub.post(.number, payload: 2)
        XCTAssertEqual(received.values, [1])
        XCTAssertEqual(hub.observerCount(for: .number), 0)
        observation.cancel()  // idempotent
    }

    // Guarantees: G-lifetime-handle
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
        queue.async { waitOrFail(gate) }
        let received = Recorder<Int>()
        let observation = hub.addObserver(for: .number, context: .queue(queue, .serialAsync)) { received.append($0) }
        for value in 1...3 { hub.post(.number, payload: value) }  // queued behind the gate
        observation.cancel()
        gate.signal()
        flush(queue)
        XCTAssertEqual(received.values, [])
    }

    /// `cancel()` never waits for a running block (waiting deadlocks when the block waits for the canceller), yet the
    /// delivery queued behind the running one never starts.
    // Guarantees: G-hub-cancel-no-wait, G-hub-cancel-no-start
    func testCancelFromAnotherThreadReturnsWhileTheBlockRunsAndTheBlockNeverStartsAgain() {
        let hub = NotificationHub()
        let queue = DispatchQueue(label: "test.running")
        let started = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let calls = Counter()
        let observation = hub.addObserver(for: .number, context: .queue(queue, .serialAsync)) { _ in
            calls.increment()
            started.signal()
            _ = gate.wait(timeout: .now() + 10)  // bounded, so a failing run does not hang
        }
        hub.post(.number, payload: 1)
        hub.post(.number, payload: 2)  // queued behind the running block: must never start
        XCTAssertEqual(started.wait(timeout: .now() + 10), .success, "the first delivery did not start")
        let cancelReturned = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let observation = observation
            observation.cancel()
            cancelReturned.signal()
        }
        // The block is still held at the gate: cancel() must return anyway.
        XCTAssertEqual(cancelReturned.wait(timeout: .now() + 10), .success, "cancel() waited for the running block")
        XCTAssertEqual(calls.value, 1)
        gate.signal()
        flush(queue)
        XCTAssertEqual(calls.value, 1, "the queued second delivery started after cancel() returned")
    }

    /// Two observers on two serial queues whose blocks cancel each other while both are running: a `cancel()` that
    /// waited for the other block would deadlock, each block waiting for the other.
    // Guarantees: G-hub-cancel-no-wait, G-hub-reentrant-calls
    func testObserversOnTwoQueuesCancellingEachOtherFromTheirBlocksDoNotDeadlock() {
        let hub = NotificationHub()
        let lifetimes = LockedBox<[String: any Lifetime]>([:])
        let inside = DispatchSemaphore(value: 0)
        let bothInside = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let timedOut = Flag()
        func block(cancelling other: String) -> @Sendable (Int) -> Void {
            { _ in
                inside.signal()
                // Both blocks run at once before either cancels the other.
                if bothInside.wait(timeout: .now() + 10) == .timedOut { timedOut.set() }
                if let lifetime = lifetimes.withLock({ $0[other] }) { lifetime.cancel() }
                done.signal()
            }
        }
        let first = hub.addObserver(
            for: .number, context: .asyncQueue(label: "test.first"), using: block(cancelling: "second"))
        let second = hub.addObserver(
            for: .number, context: .asyncQueue(label: "test.second"), using: block(cancelling: "first"))
        lifetimes.withLock { $0 = ["first": first, "second": second] }
        hub.post(.number, payload: 1)
        for _ in 0..<2 { XCTAssertEqual(inside.wait(timeout: .now() + 10), .success, "a block did not start") }
        bothInside.signal()
        bothInside.signal()
        for _ in 0..<2 {
            XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "the blocks deadlocked cancelling each other")
        }
        XCTAssertFalse(timedOut.isSet)
        hub.post(.number, payload: 2)  // both are cancelled
        XCTAssertEqual(inside.wait(timeout: .now() + 0.2), .timedOut, "a cancelled block started")
        XCTAssertEqual(hub.observerCount(for: .number), 0)
        lifetimes.withLock { $0.removeAll() }
    }

    // Guarantees: G-hub-cancel-no-wait, G-hub-cancel-no-start, G-hub-reentrant-calls
    func testCancelFromInsideTheBlockReturnsAndStopsLaterDeliveries() {
        let hub = NotificationHub()
        let queue = DispatchQueue(label: "test.self-cancel")
        let received = Recorder<Int>()
        let holder = LockedBox<(any Lifetime)?>(nil)
        let observation = hub.addObserver(for: .number, context: .queue(queue, .serialAsync)) { value in
            received.append(value)
            if let observation = holder.withLock({ $0 }) { observation.cancel() }  // would deadlock if it waited
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

    // Guarantees: G-hub-cancel-no-start
    func testDirectObserverCancelledFromAnotherThreadIsNotCalledByLaterPosts() {
        let hub = NotificationHub()
        let received = Counter()
        let observation = hub.addObserver(for: .number) { _ in received.increment() }
        let cancelled = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {  // not `sync`, which would run the block on this thread
            let observation = observation
            observation.cancel()
            cancelled.signal()
        }
        waitOrFail(cancelled, "cancel() did not return")
        hub.post(.number, payload: 1)
        XCTAssertEqual(received.value, 0)
    }
}

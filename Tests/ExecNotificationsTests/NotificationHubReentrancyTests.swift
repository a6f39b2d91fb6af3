// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import XCTest

@testable import ExecNotifications

final class NotificationHubReentrancyTests: XCTestCase {
    // Guarantees: G-hub-reentrant-calls
    func testDirectObserverMayPostFromItsBlock() {
        let hub = NotificationHub()
        let received = Recorder<Int>()
        let observation = hub.addObserver(for: .number) { value in
            received.append(value)
            if value < 3 { hub.post(.number, payload: value + 1) }
        }
        hub.post(.number, payload: 1)
        XCTAssertEqual(received.values, [1, 2, 3])
        withExtendedLifetime(observation) {}
    }

    // Guarantees: G-hub-post-snapshot, G-hub-reentrant-calls
    func testObserverAddedDuringAPostDoesNotReceiveThatPost() {
        let hub = NotificationHub()
        let late = Recorder<Int>()
        let added = LockedBox<[any Lifetime]>([])
        let observation = hub.addObserver(for: .number) { _ in
            let new = hub.addObserver(for: .number) { late.append($0) }
            added.withLock { $0.append(new) }
        }
        hub.post(.number, payload: 1)
        XCTAssertEqual(late.values, [])
        hub.post(.number, payload: 2)
        XCTAssertEqual(late.values, [2])  // the observer added during post 1 receives post 2
        withExtendedLifetime(observation) {}
        added.withLock { $0.removeAll() }
    }

    // Guarantees: G-hub-reentrant-calls, G-hub-cancel-no-wait
    func testDirectObserverMayCancelItselfAndOthersDuringAPost() {
        let hub = NotificationHub()
        let calls = Recorder<String>()
        let lifetimes = LockedBox<[String: any Lifetime]>([:])
        let first = hub.addObserver(for: .number) { _ in
            calls.append("first")
            for key in ["first", "second"] {
                if let lifetime = lifetimes.withLock({ $0[key] }) { lifetime.cancel() }
            }
        }
        let second = hub.addObserver(for: .number) { _ in calls.append("second") }
        lifetimes.withLock { $0 = ["first": first, "second": second] }
        hub.post(.number, payload: 1)  // "second" is cancelled before its turn in this very post
        hub.post(.number, payload: 2)
        XCTAssertEqual(calls.values, ["first"])
        XCTAssertEqual(hub.observerCount(for: .number), 0)
        lifetimes.withLock { $0.removeAll() }
    }

    // Guarantees: G-hub-post-order, G-hub-reentrant-calls
    func testAsynchronousObserverPostingToItselfKeepsPostOrder() {
        let hub = NotificationHub()
        let queue = DispatchQueue(label: "test.reentrant")
        let received = Recorder<Int>()
        let observation = hub.addObserver(for: .number, context: .queue(queue, .conditionallyAsync(true))) { value in
            received.append(value)
            // Inline on this queue would nest; the mailbox queues it behind the posts already waiting.
            if value == 1 { hub.post(.number, payload: 10) }
        }
        queue.sync {
            hub.post(.number, payload: 1)  // on the queue and nothing pending: runs inline, posts 10 from inside
            hub.post(.number, payload: 2)
        }
        waitUntil { received.count == 3 }  // the nested post may go to a drain queued after this point
        XCTAssertEqual(received.values, [1, 10, 2])
        withExtendedLifetime(observation) {}
    }

    // Guarantees: G-hub-reentrant-calls
    func testMutexContextObserverMayPostToItselfWithoutDeadlock() {
        let hub = NotificationHub()
        let received = Recorder<Int>()
        let observation = hub.addObserver(for: .number, context: Exec.direct.serialized()) { value in
            received.append(value)
            if value == 1 { hub.post(.number, payload: 2) }  // re-entering a mutex context would deadlock
        }
        hub.post(.number, payload: 1)
        // The nested post joins the mailbox behind the running delivery; the drain started by the outer post runs
        // only what was pending when it started, so the nested one may arrive a little later, asynchronously.
        waitUntil { received.count == 2 }
        XCTAssertEqual(received.values, [1, 2])
        withExtendedLifetime(observation) {}
    }
}

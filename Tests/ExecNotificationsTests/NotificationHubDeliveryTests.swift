// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import XCTest

@testable import ExecNotifications

final class NotificationHubDeliveryTests: XCTestCase {
    // Guarantees: G-hub-direct-inline
    func testDirectObserverRunsOnThePostingThreadBeforePostReturns() {
        let hub = NotificationHub()
        let received = Recorder<Int>()
        let observation = hub.addObserver(for: .number) { received.append($0) }
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            hub.post(.number, payload: 7)
            XCTAssertEqual(received.values, [7])  // already delivered when post returned
            done.signal()
        }
        waitOrFail(done, "the post did not return")
        withExtendedLifetime(observation) {}
    }

    // Guarantees: G-hub-direct-inline
    func testDirectObserversRunInTheOrderTheyWereAdded() {
        let hub = NotificationHub()
        let order = Recorder<String>()
        let first = hub.addObserver(for: .number) { _ in order.append("first") }
        let second = hub.addObserver(for: .number) { _ in order.append("second") }
        let third = hub.addObserver(for: .number) { _ in order.append("third") }
        hub.post(.number, payload: 1)
        XCTAssertEqual(order.values, ["first", "second", "third"])
        withExtendedLifetime((first, second, third)) {}
    }

    func testVoidPostAndPayloadsAreTyped() {
        let hub = NotificationHub()
        let pings = Counter()
        let titles = Recorder<String>()
        let title = NotificationName<String>("test.title")
        let a = hub.addObserver(for: .ping) { pings.increment() }
        let b = hub.addObserver(for: title) { titles.append($0) }
        hub.post(.ping)
        hub.post(title, payload: "hello")
        XCTAssertEqual(pings.value, 1)
        XCTAssertEqual(titles.values, ["hello"])
        withExtendedLifetime((a, b)) {}
    }

    // Guarantees: G-hub-name-typed
    func testSameStringWithDifferentPayloadTypesAreDifferentNotifications() {
        let hub = NotificationHub()
        let asInt = NotificationName<Int>("test.shared")
        let asString = NotificationName<String>("test.shared")
        let ints = Recorder<Int>()
        let strings = Recorder<String>()
        let a = hub.addObserver(for: asInt) { ints.append($0) }
        let b = hub.addObserver(for: asString) { strings.append($0) }
        hub.post(asInt, payload: 3)
        hub.post(asString, payload: "three")
        XCTAssertEqual(ints.values, [3])
        XCTAssertEqual(strings.values, ["three"])
        XCTAssertEqual(NotificationName<Int>("test.shared"), asInt)
        XCTAssertNotEqual(NotificationName<Int>("test.other"), asInt)
        withExtendedLifetime((a, b)) {}
    }

    func testUnrelatedNamesAreNotDelivered() {
        let hub = NotificationHub()
        let received = Recorder<Int>()
        let observation = hub.addObserver(for: .number) { received.append($0) }
        var others: [any Lifetime] = []
        for index in 0..<50 {
            others.append(
                hub.addObserver(for: NotificationName<Int>("test.unrelated.\(index)")) { _ in
                    XCTFail("an unrelated observer was called")
                })
        }
        hub.post(.number, payload: 1)
        hub.post(NotificationName<Int>("test.nobody"), payload: 2)
        XCTAssertEqual(received.values, [1])
        withExtendedLifetime((observation, others)) {}
    }

    // Guarantees: G-hub-object-filter
    func testObjectFilterMatchesByIdentity() {
        let hub = NotificationHub()
        let model = Model()
        let other = Model()
        let filtered = Recorder<Int>()
        let unfiltered = Recorder<Int>()
        let a = hub.addObserver(for: .number, object: model) { filtered.append($0) }
        let b = hub.addObserver(for: .number) { unfiltered.append($0) }
        hub.post(.number, object: model, payload: 1)
        hub.post(.number, object: other, payload: 2)
        hub.post(.number, payload: 3)
        XCTAssertEqual(filtered.values, [1])
        XCTAssertEqual(unfiltered.values, [1, 2, 3])
        withExtendedLifetime((a, b)) {}
    }

    /// Notifications.md: "once it is gone the observer receives nothing more". A new object that happens to take the
    /// freed one's address must not be taken for it (an observer that kept the address alone would receive this post).
    // Guarantees: G-hub-object-weak
    func testAnObserverOfAnObjectThatIsGoneReceivesNothingFromANewObjectAtItsAddress() throws {
        let hub = NotificationHub()
        let received = Recorder<Int>()
        var model: Model? = Model()
        let address = ObjectIdentifier(model!)
        let observation = hub.addObserver(for: .number, object: model) { received.append($0) }
        model = nil
        var others: [Model] = []
        var reused: Model?
        for _ in 0..<10_000 {
            let candidate = Model()
            if ObjectIdentifier(candidate) == address {
                reused = candidate
                break
            }
            others.append(candidate)
        }
        let successor = try XCTUnwrap(reused, "the allocator never reused the address; nothing to check")
        hub.post(.number, object: successor, payload: 1)
        XCTAssertEqual(received.values, [])
        withExtendedLifetime((observation, others)) {}
    }

    /// Notifications.md: "A post made from inside an observer block is delivered, depth first, before the outer post
    /// continues." With two observers, breadth first would give a1, b1, a2, b2.
    // Guarantees: G-hub-nested-depth-first
    func testANestedPostReachesEveryObserverBeforeTheOuterPostContinues() {
        let hub = NotificationHub()
        let log = Recorder<String>()
        let a = hub.addObserver(for: .number) { value in
            log.append("a\(value)")
            if value == 1 { hub.post(.number, payload: 2) }
        }
        let b = hub.addObserver(for: .number) { log.append("b\($0)") }
        hub.post(.number, payload: 1)
        XCTAssertEqual(log.values, ["a1", "a2", "b2", "b1"])
        withExtendedLifetime((a, b)) {}
    }

    // Guarantees: G-hub-object-weak
    func testHubDoesNotRetainTheObservedObject() {
        let hub = NotificationHub()
        var model: Model? = Model()
        weak var weakModel: AnyObject?  // assigned apart, so Swift 6.0 (no `weak let`) and 6.3 (no warning) agree
        weakModel = model
        let observation = hub.addObserver(for: .number, object: model) { _ in }
        model = nil
        XCTAssertNil(weakModel)
        hub.post(.number, payload: 1)  // harmless with the object gone
        withExtendedLifetime(observation) {}
    }

    // Guarantees: G-hub-context-delivery
    func testMainObserverRunsOnTheMainQueue() {
        let hub = NotificationHub()
        let delivered = expectation(description: "delivered")
        let observation = hub.addObserver(for: .number, context: .main) { value in
            XCTAssertTrue(DispatchQueue.isMainQueueCurrent)
            XCTAssertEqual(value, 5)
            delivered.fulfill()
        }
        DispatchQueue.global().async { hub.post(.number, payload: 5) }
        wait(for: [delivered], timeout: 10)
        withExtendedLifetime(observation) {}
    }

    // Guarantees: G-hub-context-delivery
    func testAsynchronousContextDoesNotRunTheBlockInsidePost() {
        let hub = NotificationHub()
        let queue = DispatchQueue(label: "test.async")
        let gate = DispatchSemaphore(value: 0)
        queue.async { waitOrFail(gate) }  // the queue cannot run anything until the gate opens
        let received = Recorder<Int>()
        let observation = hub.addObserver(for: .number, context: .queue(queue, .serialAsync)) { received.append($0) }
        hub.post(.number, payload: 1)  // would deadlock here if the delivery were synchronous
        XCTAssertEqual(received.values, [])
        gate.signal()
        flush(queue)
        XCTAssertEqual(received.values, [1])
        withExtendedLifetime(observation) {}
    }

    // Guarantees: G-hub-post-order
    func testSerialContextReceivesPostsInFIFOOrder() {
        let hub = NotificationHub()
        let queue = DispatchQueue(label: "test.serial")
        let received = Recorder<Int>()
        let observation = hub.addObserver(for: .number, context: .queue(queue, .serialAsync)) { received.append($0) }
        for value in 0..<1_000 { hub.post(.number, payload: value) }
        // Not `flush(queue)`: a drain runs the posts pending when it starts and queues a new drain for the rest.
        waitUntil { received.count == 1_000 }
        XCTAssertEqual(received.values, Array(0..<1_000))
        withExtendedLifetime(observation) {}
    }

    // Guarantees: G-hub-post-order
    func testConcurrentContextStillReceivesOneObserversPostsInOrder() {
        let hub = NotificationHub()
        let received = Recorder<Int>()
        let observation = hub.addObserver(for: .number, context: .utility) { value in
            if value % 100 == 0 { usleep(100) }  // give a concurrent queue every chance to reorder
            received.append(value)
        }
        for value in 0..<2_000 { hub.post(.number, payload: value) }
        waitUntil { received.count == 2_000 }
        XCTAssertEqual(received.values, Array(0..<2_000))
        withExtendedLifetime(observation) {}
    }

    /// The case an "inline when already on main" shortcut gets wrong: a post queued for a `.main` observer from a
    /// background thread, then a later post made on the main queue, must arrive in that order.
    // Guarantees: G-hub-post-order, G-hub-context-delivery
    func testLaterPostOnMainDoesNotOvertakeEarlierPostQueuedFromBackground() {
        XCTAssertTrue(DispatchQueue.isMainQueueCurrent, "XCTest runs synchronous tests on the main queue")
        let hub = NotificationHub()
        let received = Recorder<Int>()
        let both = expectation(description: "both delivered")
        both.expectedFulfillmentCount = 2
        let observation = hub.addObserver(for: .number, context: .main) { value in
            received.append(value)
            both.fulfill()
        }
        // This thread holds the main queue, so the first delivery must wait in line. (Not `global().sync`: that runs
        // the block on this very thread, which is on the main queue, so the post would be delivered inline.)
        let posted = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            XCTAssertFalse(DispatchQueue.isMainQueueCurrent)
            hub.post(.number, payload: 1)
            posted.signal()
        }
        waitOrFail(posted, "the background post did not return")
        XCTAssertEqual(received.values, [], "the first delivery is queued on the main queue")
        hub.post(.number, payload: 2)
        wait(for: [both], timeout: 10)
        XCTAssertEqual(received.values, [1, 2])
        withExtendedLifetime(observation) {}
    }

    // Guarantees: G-hub-context-delivery
    func testMainObserverRunsInlineWhenPostedOnMainWithNothingPending() {
        XCTAssertTrue(DispatchQueue.isMainQueueCurrent)
        let hub = NotificationHub()
        let received = Recorder<Int>()
        let observation = hub.addObserver(for: .number, context: .main) { received.append($0) }
        hub.post(.number, payload: 9)
        XCTAssertEqual(received.values, [9])  // .main's preference: immediate when already on the main queue
        withExtendedLifetime(observation) {}
    }

    // Guarantees: G-hub-context-delivery
    func testCustomContextIsUsed() {
        let hub = NotificationHub()
        let queue = DispatchQueue(label: "test.custom.target")
        let received = Recorder<Bool>()
        let observation = hub.addObserver(for: .number, context: .custom(Exec.queue(queue, .serialAsync))) { _ in
            received.append(queue.isCurrent)
        }
        hub.post(.number, payload: 1)
        flush(queue)
        XCTAssertEqual(received.values, [true])
        withExtendedLifetime(observation) {}
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import XCTest

@testable import ExecNotifications

final class NotificationHubAsyncSequenceTests: XCTestCase {
    // Guarantees: G-hub-stream-registered-at-once, G-hub-stream-unregisters, G-hub-stream-order, G-hub-stream-buffering
    func testPostsMadeBeforeTheFirstNextAreNotLost() async {
        let hub = NotificationHub()
        let received = await withTimeout {
            let stream = hub.notifications(for: .number)
            for value in 1...3 { hub.post(.number, payload: value) }
            var received: [Int] = []
            for await value in stream {
                received.append(value)
                if received.count == 3 { break }
            }
            return received
        }
        XCTAssertEqual(received, [1, 2, 3])
        XCTAssertEqual(hub.observerCount(for: .number), 0, "leaving the loop and the stream's scope unregisters")
    }

    // Guarantees: G-hub-object-filter
    func testObjectFilterApplies() async {
        let hub = NotificationHub()
        let model = Model()
        let stream = hub.notifications(for: .number, object: model)
        hub.post(.number, payload: 1)
        hub.post(.number, object: model, payload: 2)
        let first = await withTimeout {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }
        XCTAssertEqual(first, 2)
    }

    // Guarantees: G-hub-stream-unregisters
    func testCancellingTheTaskUnregistersEvenWhileTheStreamIsStillHeld() async {
        let hub = NotificationHub()
        let stream = hub.notifications(for: .number)
        let task = Task {
            for await _ in stream {}
        }
        hub.post(.number, payload: 1)
        task.cancel()
        await withTimeout { await task.value }
        XCTAssertEqual(hub.observerCount(for: .number), 0)
        withExtendedLifetime(stream) {}
    }

    // Guarantees: G-hub-stream-unregisters
    func testCancellingTheIteratingTaskUnregisters() async {
        let hub = NotificationHub()
        let stream = hub.notifications(for: .number)
        let task = Task {
            var count = 0
            for await _ in stream { count += 1 }
            return count
        }
        hub.post(.number, payload: 1)
        task.cancel()
        _ = await withTimeout { await task.value }
        XCTAssertEqual(hub.observerCount(for: .number), 0)
    }

    // Guarantees: G-hub-stream-unregisters
    func testReleasingAnUniteratedStreamUnregisters() {
        let hub = NotificationHub()
        var stream: AsyncStream<Int>? = hub.notifications(for: .number)
        XCTAssertEqual(hub.observerCount(for: .number), 1)
        XCTAssertNotNil(stream)
        stream = nil
        XCTAssertEqual(hub.observerCount(for: .number), 0)
    }

    // Guarantees: G-hub-stream-buffering
    func testBufferingNewestKeepsOnlyTheLatest() async {
        let hub = NotificationHub()
        let stream = hub.notifications(for: .number, bufferingPolicy: .bufferingNewest(1))
        for value in 1...5 { hub.post(.number, payload: value) }
        let latest = await withTimeout {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }
        XCTAssertEqual(latest, 5)
    }

    // Guarantees: G-hub-stream-hub-gone, G-hub-gone-stops-observers
    func testStreamFinishesWhenTheHubIsReleased() async {
        var hub: NotificationHub? = NotificationHub()
        let stream = hub!.notifications(for: .number)
        hub!.post(.number, payload: 1)
        hub!.post(.number, payload: 2)
        hub = nil
        let received = await withTimeout {
            var received: [Int] = []
            for await value in stream { received.append(value) }  // hangs if the stream never finishes
            return received
        }
        XCTAssertEqual(received, [1, 2], "the buffered payloads come out, then the loop ends")
    }

    // Guarantees: G-hub-stream-hub-gone, G-hub-gone-stops-observers
    func testStreamBeingIteratedFinishesWhenTheHubIsReleased() async {
        var hub: NotificationHub? = NotificationHub()
        let stream = hub!.notifications(for: .number)
        let iterating = Task {
            var received: [Int] = []
            for await value in stream { received.append(value) }
            return received
        }
        hub!.post(.number, payload: 1)
        try? await Task.sleep(nanoseconds: 10_000_000)  // most likely suspended in next() by now; either way works
        hub = nil
        let received = await withTimeout {
            // Awaiting a task's value ignores cancellation: forward it, so that a timeout ends the loop.
            await withTaskCancellationHandler {
                await iterating.value
            } onCancel: {
                iterating.cancel()
            }
        }
        XCTAssertEqual(received, [1])
    }
}

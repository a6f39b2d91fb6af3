// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecDispatch
import ExecKit
import Foundation
import XCTest

/// *Migrating from CwlUtils*: `.main` runs a block inline on the main *queue*, not on thread 1, and the two differ "on
/// thread 1 inside a `sync` on another queue, where ExecKit queues the block instead of running it inside that other
/// queue" (issue #32). XCTest runs synchronous test methods on thread 1, on the main queue, and drains the main queue
/// while a test waits for an expectation; `DispatchQueue.sync` runs its block on the calling thread, here thread 1.
final class MainOnThreadOneXCTests: XCTestCase {
    // Guarantees: G-main-thread1-in-sync-queues
    func testMainInvokeOnThreadOneInsideASyncOnAnotherQueueIsQueued() {
        XCTAssertTrue(Thread.isMainThread, "XCTest runs synchronous tests on thread 1")
        XCTAssertTrue(DispatchQueue.isMainQueueCurrent, "and on the main queue")
        for round in 0..<50 {
            let other = DispatchQueue(label: "test.other")
            let ran = expectation(description: "round \(round): the block ran")
            let invokeReturned = Flag()
            let outcome = LockedBox<(afterReturn: Bool, onMainQueue: Bool, insideOther: Bool)?>(nil)
            other.sync {
                XCTAssertTrue(Thread.isMainThread, "sync runs its block on the calling thread")
                Exec.main.invoke {
                    outcome.withLock {
                        $0 = (invokeReturned.isSet, DispatchQueue.isMainQueueCurrent, other.isCurrent)
                    }
                    ran.fulfill()
                }
                invokeReturned.set()
            }
            wait(for: [ran], timeout: 10)
            let seen = outcome.withLock { $0 }
            XCTAssertEqual(seen?.afterReturn, true, "round \(round): .main ran the block inline inside the other queue")
            XCTAssertEqual(seen?.onMainQueue, true, "round \(round): the block did not run on the main queue")
            XCTAssertEqual(seen?.insideOther, false, "round \(round): the block ran inside the other queue")
            if seen?.afterReturn != true { return }
        }
    }

    /// The same through `invoke(_:with:)`, which decides on its own path.
    // Guarantees: G-main-thread1-in-sync-queues
    func testMainInvokeWithValueOnThreadOneInsideASyncOnAnotherQueueIsQueued() {
        XCTAssertTrue(Thread.isMainThread, "XCTest runs synchronous tests on thread 1")
        let other = DispatchQueue(label: "test.other")
        let ran = expectation(description: "the handler ran")
        let invokeReturned = Flag()
        let outcome = LockedBox<(value: Int, afterReturn: Bool, insideOther: Bool)?>(nil)
        other.sync {
            Exec.main.invoke(
                { value in
                    outcome.withLock { $0 = (value, invokeReturned.isSet, other.isCurrent) }
                    ran.fulfill()
                }, with: 7)
            invokeReturned.set()
        }
        wait(for: [ran], timeout: 10)
        let seen = outcome.withLock { $0 }
        XCTAssertEqual(seen?.value, 7)
        XCTAssertEqual(seen?.afterReturn, true, ".main ran the handler inline inside the other queue")
        XCTAssertEqual(seen?.insideOther, false, "the handler ran inside the other queue")
    }
}

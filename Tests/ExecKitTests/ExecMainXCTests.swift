// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import XCTest

/// `.main` where XCTest runs it: synchronous test methods run on the initial thread, which drains the main queue
/// while the test waits for an expectation.
final class ExecMainXCTests: XCTestCase {
    // Guarantees: G-main-inline-on-main-queue
    func testMainInvokeIsImmediateOnTheMainQueue() {
        let ran = Flag()
        Exec.main.invoke { ran.set() }
        XCTAssertTrue(ran.isSet)
        XCTAssertEqual(Exec.main.type, .conditionallyAsync(false))
    }

    // Guarantees: G-main-inline-on-main-queue, G-exec-type-current-caller
    func testMainInvokeFromAWorkerQueuesOnTheMainQueue() {
        let done = expectation(description: "ran on main")
        DispatchQueue.global().async {
            XCTAssertEqual(Exec.main.type, .conditionallyAsync(true))
            let worker = ThreadID.current
            Exec.main.invoke {
                XCTAssertTrue(DispatchQueue.isMainQueueCurrent)
                XCTAssertNotEqual(ThreadID.current, worker, "must not run inline on the worker")
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 10)
    }

    /// On thread 1 too, a `.main` callback is isolated to `MainActor` (`assumeIsolated` would stop the process).
    // Guarantees: G-main-actor-agrees
    func testMainCallbackFromAWorkerIsMainActorIsolated() {
        let done = expectation(description: "ran on main")
        DispatchQueue.global().async {
            Exec.main.invoke {
                XCTAssertTrue(MainActor.assumeIsolated { Exec.main.isCurrent })
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 10)
    }

    // Guarantees: G-main-actor-agrees
    @MainActor func testMainActorCodeIsOnMain() {
        let ran = Flag()
        Exec.main.invoke { ran.set() }
        XCTAssertTrue(ran.isSet)
        XCTAssertTrue(Exec.main.isCurrent)
    }

    func testInvokeWithValueOnMainIsImmediateOnTheMainQueue() {
        let received = Recorder<Int>()
        Exec.main.invoke({ received.record($0) }, with: 3)
        XCTAssertEqual(received.recorded, [3])
    }

    // Guarantees: G-main-async-never-inline
    func testMainAsyncIsAlwaysAsynchronous() {
        let ran = Flag()
        let done = expectation(description: "ran later")
        Exec.mainAsync.invoke {
            ran.set()
            done.fulfill()
        }
        XCTAssertFalse(ran.isSet, ".mainAsync must not run the block before invoke returns")
        XCTAssertEqual(Exec.mainAsync.type, .serialAsync)
        wait(for: [done], timeout: 10)
    }

    // Guarantees: G-invokesync-inline-inside
    func testInvokeSyncOnMainFromMainDoesNotDeadlock() {
        XCTAssertEqual(Exec.main.invokeSync { 5 }, 5)
        XCTAssertEqual(Exec.mainAsync.invokeSync { 6 }, 6)
        XCTAssertEqual(Exec.mainOrdered.invokeSync { 7 }, 7)
    }

    func testInvokeSyncOnMainFromAWorkerWaitsForTheMainQueue() {
        let done = expectation(description: "worker got the value")
        DispatchQueue.global().async {
            let onMain = Exec.main.invokeSync { DispatchQueue.isMainQueueCurrent }
            XCTAssertTrue(onMain)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
    }

    /// The documented hazard of `.main`, and the variant that avoids it.
    // Guarantees: G-main-ordered-no-overtake, G-main-ordered-inline-when-idle
    func testMainOrderedDoesNotOvertakeEarlierBlocks() {
        let order = Recorder<String>()
        let queued = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            Exec.mainOrdered.invoke { order.record("queued first, from a worker") }
            queued.signal()
        }
        queued.wait()  // the worker's block is now waiting on the main queue
        Exec.mainOrdered.invoke { order.record("invoked later, on main") }
        XCTAssertTrue(order.recorded.isEmpty, "the later block must wait behind the earlier one")
        let drained = expectation(description: "both ran")
        Exec.mainAsync.invoke { drained.fulfill() }
        wait(for: [drained], timeout: 10)
        XCTAssertEqual(order.recorded, ["queued first, from a worker", "invoked later, on main"])
    }

    // Guarantees: G-main-ordered-inline-when-idle
    func testMainOrderedIsImmediateWhenNothingIsPending() {
        let ran = Flag()
        Exec.mainOrdered.invoke { ran.set() }
        XCTAssertTrue(ran.isSet)
        XCTAssertEqual(Exec.mainOrdered.type, .conditionallyAsync(false))
    }

    // Guarantees: G-main-overtakes
    func testPlainMainOvertakesQueuedBlocksAsDocumented() {
        let order = Recorder<String>()
        let queued = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            Exec.main.invoke { order.record("queued") }
            queued.signal()
        }
        queued.wait()
        Exec.main.invoke { order.record("immediate") }
        let drained = expectation(description: "drained")
        Exec.mainAsync.invoke { drained.fulfill() }
        wait(for: [drained], timeout: 10)
        XCTAssertEqual(order.recorded, ["immediate", "queued"])
    }

    // Guarantees: G-timer-fires-in-context
    func testMainTimerFiresOnTheMainQueue() {
        let fired = expectation(description: "fired")
        let lifetime = Exec.main.singleTimer(interval: .milliseconds(5)) {
            XCTAssertTrue(DispatchQueue.isMainQueueCurrent)
            fired.fulfill()
        }
        wait(for: [fired], timeout: 10)
        withExtendedLifetime(lifetime) {}
    }
}

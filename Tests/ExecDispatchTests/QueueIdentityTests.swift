// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecDispatch
import Testing
import XCTest

@Suite struct QueueIdentityTests {
    @Test func isCurrentOnlyInsideTheQueue() {
        let queue = DispatchQueue(label: "identity")
        let other = DispatchQueue(label: "other")
        #expect(queue.isCurrent == false)
        #expect(queue.sync { queue.isCurrent })
        #expect(other.sync { queue.isCurrent } == false)
        // Inside `other.sync` the caller still holds `queue`, but `other` is running it: a documented false negative.
        #expect(queue.sync { other.sync { queue.isCurrent } } == false)
    }

    @Test func isCurrentInsideAsyncBlocks() async {
        let queue = DispatchQueue(label: "identity.async")
        let inside = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: queue.isCurrent) }
        }
        #expect(inside)
    }

    @Test func aQueueTargetingAnotherCountsAsBoth() {
        let target = DispatchQueue(label: "target")
        let child = DispatchQueue(label: "child", target: target)
        #expect(child.sync { target.isCurrent })
        #expect(target.sync { child.isCurrent } == false)
    }

    @Test func concurrentFirstUseMarksAQueueOnce() {
        let queue = DispatchQueue(label: "race")
        DispatchQueue.concurrentPerform(iterations: 16) { _ in _ = queue.isCurrent }
        #expect(queue.sync { queue.isCurrent })
    }

    @Test func mainQueueIsNotCurrentOnAGlobalQueue() {
        #expect(DispatchQueue.global().sync { DispatchQueue.isMainQueueCurrent } == false)
        #expect(DispatchQueue(label: "q").sync { DispatchQueue.isMainQueueCurrent } == false)
    }

    /// Swift Testing runs the main queue (and MainActor) on a worker thread: the check must still say yes.
    @Test @MainActor func mainQueueIsCurrentInAMainActorTest() {
        #expect(DispatchQueue.isMainQueueCurrent)
    }

    @Test func mainQueueIsCurrentInsideMainQueueBlocks() async {
        let inside = await withCheckedContinuation { continuation in
            DispatchQueue.main.async { continuation.resume(returning: DispatchQueue.isMainQueueCurrent) }
        }
        #expect(inside)
    }
}

/// XCTest runs synchronous test methods on the process's initial thread, which owns the main queue.
final class MainThreadQueueIdentityTests: XCTestCase {
    func testMainQueueIsCurrentOnTheInitialThread() {
        XCTAssertTrue(DispatchQueue.isMainQueueCurrent)
        XCTAssertTrue(DispatchQueue.isMainQueueCurrent, "asking twice gives the same answer")
    }

    func testMainQueueIsNotCurrentOnAWorker() {
        let answered = expectation(description: "answered on a worker")
        DispatchQueue.global().async {
            XCTAssertFalse(DispatchQueue.isMainQueueCurrent)
            answered.fulfill()
        }
        wait(for: [answered], timeout: 10)
    }

    /// As documented: inside a `sync` on another queue, that other queue is the one running the caller.
    func testTheMainThreadInsideASyncOnAnotherQueueIsNotTheMainQueue() {
        XCTAssertTrue(DispatchQueue.isMainQueueCurrent)
        XCTAssertFalse(DispatchQueue(label: "nested").sync { DispatchQueue.isMainQueueCurrent })
    }

    func testAQueueTargetingTheMainQueueCountsAsMain() {
        let child = DispatchQueue(label: "child of main", target: .main)
        let answered = expectation(description: "answered")
        child.async {
            XCTAssertTrue(DispatchQueue.isMainQueueCurrent)
            answered.fulfill()
        }
        wait(for: [answered], timeout: 10)
    }
}

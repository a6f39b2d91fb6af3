// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecDispatch
import Testing
import XCTest

@Suite struct QueueIdentityTests {
    // Guarantees: G-dispatch-iscurrent-no-false-positives
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

    // Guarantees: G-queue-identity-targets
    @Test func aQueueTargetingAnotherCountsAsBoth() {
        let target = DispatchQueue(label: "target")
        let child = DispatchQueue(label: "child", target: target)
        #expect(child.sync { target.isCurrent })
        #expect(target.sync { child.isCurrent } == false)
    }

    /// The answer must not depend on which queues were asked about before (it did when all queues shared one key).
    // Guarantees: G-queue-identity-targets
    @Test func theAnswerDoesNotDependOnWhatWasAskedBefore() {
        let parent = DispatchQueue(label: "parent")
        let child = DispatchQueue(label: "child", target: parent)
        #expect(child.sync { (child.isCurrent, parent.isCurrent) } == (true, true))
        #expect(child.sync { (parent.isCurrent, child.isCurrent) } == (true, true))
        let freshParent = DispatchQueue(label: "fresh.parent")
        let freshChild = DispatchQueue(label: "fresh.child", target: freshParent)
        _ = freshChild.isCurrent  // asked first, from outside
        #expect(freshChild.sync { freshParent.isCurrent })
        #expect(freshParent.sync { freshChild.isCurrent } == false)
    }

    // Guarantees: G-queue-identity-targets, G-dispatch-iscurrent-no-false-positives
    @Test func aThreeLevelHierarchyCountsAsEveryLevelAbove() {
        let root = DispatchQueue(label: "root")
        let middle = DispatchQueue(label: "middle", target: root)
        let leaf = DispatchQueue(label: "leaf", target: middle)
        let unrelated = DispatchQueue(label: "unrelated")
        for _ in 0..<2 {  // twice: every queue has been asked about by the second round
            #expect(leaf.sync { [leaf.isCurrent, middle.isCurrent, root.isCurrent] } == [true, true, true])
            #expect(middle.sync { [leaf.isCurrent, middle.isCurrent, root.isCurrent] } == [false, true, true])
            #expect(root.sync { [leaf.isCurrent, middle.isCurrent, root.isCurrent] } == [false, false, true])
            #expect(leaf.sync { unrelated.isCurrent } == false)
        }
    }

    // Guarantees: G-dispatch-iscurrent-no-false-positives
    @Test func aGlobalQueueIsNeverCurrent() {
        let global = DispatchQueue.global(qos: .utility)
        let ownQueue = DispatchQueue(label: "targets.utility", target: global)
        #expect(ownQueue.sync { global.isCurrent } == false)
        #expect(global.sync { global.isCurrent } == false)
    }

    // Guarantees: G-dispatch-identity-any-thread
    @Test func concurrentFirstUseMarksAQueueOnce() {
        let queue = DispatchQueue(label: "race")
        DispatchQueue.concurrentPerform(iterations: 16) { _ in _ = queue.isCurrent }
        #expect(queue.sync { queue.isCurrent })
    }

    // Guarantees: G-dispatch-main-no-false-positives
    @Test func mainQueueIsNotCurrentOnAGlobalQueue() {
        #expect(DispatchQueue.global().sync { DispatchQueue.isMainQueueCurrent } == false)
        #expect(DispatchQueue(label: "q").sync { DispatchQueue.isMainQueueCurrent } == false)
    }

    /// Swift Testing runs the main queue (and MainActor) on a worker thread: the check must still say yes.
    // Guarantees: G-dispatch-main-not-thread-one
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

    // Guarantees: G-dispatch-main-no-false-positives, G-dispatch-identity-any-thread
    func testMainQueueIsNotCurrentOnAWorker() {
        let answered = expectation(description: "answered on a worker")
        DispatchQueue.global().async {
            XCTAssertFalse(DispatchQueue.isMainQueueCurrent)
            answered.fulfill()
        }
        wait(for: [answered], timeout: 10)
    }

    /// As documented: inside a `sync` on another queue, that other queue is the one running the caller.
    // Guarantees: G-dispatch-main-no-false-positives
    func testTheMainThreadInsideASyncOnAnotherQueueIsNotTheMainQueue() {
        XCTAssertTrue(DispatchQueue.isMainQueueCurrent)
        XCTAssertFalse(DispatchQueue(label: "nested").sync { DispatchQueue.isMainQueueCurrent })
    }

    // Guarantees: G-queue-identity-targets
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

/// The main-queue check's fast path: libdispatch's current-queue reader, linked directly.
@Suite struct MainQueueFastPathTests {
    #if os(macOS) || os(Linux) || os(Windows)
    @Test func theFastPathIsActiveInThisProcess() {
        #expect(MainQueueIdentity.isFastPathActive)
    }
    #endif

    // Guarantees: G-dispatch-main-no-false-positives
    @Test func itAnswersForPrivateQueuesAndTheMainQueue() async {
        #expect(DispatchQueue(label: "private").sync { DispatchQueue.isMainQueueCurrent } == false)
        let onMain = await withCheckedContinuation { continuation in
            DispatchQueue.main.async { continuation.resume(returning: DispatchQueue.isMainQueueCurrent) }
        }
        #expect(onMain)
        #expect(
            DispatchQueue.main.sync { DispatchQueue(label: "inner").sync { DispatchQueue.isMainQueueCurrent } } == false
        )
    }
}

/// `isCurrent` through libdispatch's C functions, keyed by each queue's own address.
@Suite struct RawQueueIdentityTests {
    #if os(macOS) || os(Linux) || os(Windows)
    @Test func theRawPathIsActiveInThisProcess() {
        #expect(RawQueueIdentity.isActive)
    }
    #endif

    /// Queues die and new ones take their addresses (and so their keys): each must still answer for itself only.
    // Guarantees: G-dispatch-iscurrent-no-false-positives, G-queue-identity-targets
    @Test func answersStayRightAsQueuesComeAndGo() {
        let unrelated = DispatchQueue(label: "unrelated")
        for index in 0..<500 {
            let queue = DispatchQueue(label: "short-lived.\(index)")
            if index.isMultiple(of: 2) { _ = queue.isCurrent }  // marked before use, or first marked inside
            #expect(queue.sync { queue.isCurrent })
            #expect(queue.isCurrent == false)
            #expect(unrelated.sync { queue.isCurrent } == false)
            #expect(queue.sync { unrelated.isCurrent } == false)
        }
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecNotifications
import ExecTestSupport
import Testing

/// An observer cancelled while a post of its hub is in flight (here: one whose `.direct` block is blocked) stays
/// alive, with its block and what the block captures, until no post of the hub is in flight; then the last post to
/// leave releases it, with no further `addObserver` or `cancel` on the hub needed.
@Suite struct ReleaseAfterPostsTests {
    static let blocking = NotificationName<Int>("ReleaseAfterPostsTests.blocking")
    static let other = NotificationName<Int>("ReleaseAfterPostsTests.other")

    /// Something for a block to capture, whose release the test watches.
    final class Captured: Sendable {
        func touch() {}
    }

    /// Where the cancelled observer sits: on another name, or on the post's own name, added before the blocked
    /// observer (so the blocked post has already passed it).
    enum Placement: String, CaseIterable, Sendable {
        case otherName, sameNameEarlier
    }

    // Guarantees: G-hub-release-after-posts
    @Test(arguments: Placement.allCases)
    func aCancelledObserverIsReleasedByTheLastPostToLeave(placement: Placement) {
        let hub = NotificationHub()
        weak var weakCaptured: Captured?
        var observation: (any Lifetime)?
        do {
            let captured = Captured()
            weakCaptured = captured
            let name = placement == .otherName ? Self.other : Self.blocking
            observation = hub.addObserver(for: name) { _ in captured.touch() }
        }
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let blocker = hub.addObserver(for: Self.blocking) { _ in
            entered.signal()
            _ = release.wait(timeout: .now() + 10)  // bounded: a broken test must not hang the suite
        }
        let postEnded = DispatchSemaphore(value: 0)
        startDetachedThread {
            hub.post(Self.blocking, payload: 1)
            postEnded.signal()
        }
        #expect(entered.wait(timeout: .now() + 10) == .success, "the post never reached the blocking observer")

        observation?.cancel()
        observation = nil
        #expect(weakCaptured != nil, "a cancelled observer's block was released while a post was in flight")

        release.signal()
        #expect(postEnded.wait(timeout: .now() + 10) == .success, "the post did not end")
        // Nothing else touches the hub from here on: the post that left must have released the observer.
        #expect(becomesNil { weakCaptured }, "the last post to leave did not release the cancelled observer")
        withExtendedLifetime(blocker) {}
    }

    /// Overlapping posts extend the wait: the observer stays while any of them is in flight.
    // Guarantees: G-hub-release-after-posts
    @Test func overlappingPostsKeepTheCancelledObserverUntilTheLastEnds() {
        let hub = NotificationHub()
        weak var weakCaptured: Captured?
        var observation: (any Lifetime)?
        do {
            let captured = Captured()
            weakCaptured = captured
            observation = hub.addObserver(for: Self.other) { _ in captured.touch() }
        }
        let entered = DispatchSemaphore(value: 0)
        let releases = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        let blocker = hub.addObserver(for: Self.blocking) { payload in
            entered.signal()
            _ = releases[payload].wait(timeout: .now() + 10)
        }
        let postsEnded = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        for payload in 0..<2 {
            startDetachedThread {
                hub.post(Self.blocking, payload: payload)
                postsEnded[payload].signal()
            }
        }
        #expect(entered.wait(timeout: .now() + 10) == .success)
        #expect(entered.wait(timeout: .now() + 10) == .success, "both posts must be in flight")

        observation?.cancel()
        observation = nil
        releases[0].signal()
        #expect(postsEnded[0].wait(timeout: .now() + 10) == .success, "the first post did not end")
        #expect(weakCaptured != nil, "released while the second post was still in flight")

        releases[1].signal()
        #expect(postsEnded[1].wait(timeout: .now() + 10) == .success, "the second post did not end")
        #expect(becomesNil { weakCaptured }, "the last post to leave did not release the cancelled observer")
        withExtendedLifetime(blocker) {}
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecNotifications
import ExecTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Signals and `pthread_kill` exist where processes do: not on the other Apple platforms the test targets build for.
#if os(Linux) || os(macOS)

/// The pipe ends through which a thread stopped by ``freezeOnSignal(_:)`` reports that it stopped, and waits to go on.
/// Set before the handler is installed; atomics, because the handler reads them on the frozen thread.
private let frozenNotifyFD = Atomic<Int32>(-1)
private let frozenReleaseFD = Atomic<Int32>(-1)

/// The signal handler: tells the test that this thread has stopped, wherever it was, then waits to be let go. It calls
/// only `read` and `write`, which a signal handler may call, and keeps the interrupted code's `errno`.
private func freezeOnSignal(_: Int32) {
    let savedErrno = errno
    var byte: UInt8 = 1
    _ = write(frozenNotifyFD.load(ordering: .relaxed), &byte, 1)
    while read(frozenReleaseFD.load(ordering: .relaxed), &byte, 1) < 0 && errno == EINTR {}
    errno = savedErrno
}

/// A thread's handle, to signal it from another thread.
private struct ThreadHandle: @unchecked Sendable {
    // Unchecked: on Apple platforms `pthread_t` is a pointer; the handle is only passed to `pthread_kill`.
    let thread: pthread_t
}

/// *NotificationHub*: "Finding the observers takes no lock (posts never wait for `addObserver` or `cancel`)", and
/// adding or cancelling "copies the hub's observer table under a writer lock, without blocking posts" (issue #32).
///
/// No user code runs inside `addObserver` or `cancel` (observer blocks, and what releasing them runs, are called after
/// the writer lock is unlocked), so no block of the test can stand still in there. Instead a signal freezes a thread
/// that adds and cancels observers in a loop, wherever it happens to be, and a post from a third thread must complete
/// while it is frozen. With a large observer table, which every add and cancel copies under the writer lock, most
/// freezes catch that thread holding the lock; a post that took the lock, or waited for a writer, would wait there
/// until the frozen thread is let go, and the round fails after a generous 5 s. The observers the posts reach are
/// `.direct` ones, whose posts allocate nothing: a freeze inside the allocator cannot hold them up either.
@Suite(.serialized) struct PostNeverWaitsTests {
    static let rounds = 200

    // Guarantees: G-hub-post-never-waits
    @Test func aPostCompletesWhileAThreadInsideAddObserverOrCancelIsFrozen() {
        let hub = NotificationHub()
        let ballast = (0..<4_000).map { _ in hub.addObserver(for: .ping) {} }
        // 0: deliveries to `target`; 1: the writer's completed add-and-cancel pairs; 2: stop.
        let counters = AtomicCounters(count: 3)
        let target = hub.addObserver(for: .number) { _ in counters.increment(0) }

        var notifyPipe: [Int32] = [-1, -1]
        var releasePipe: [Int32] = [-1, -1]
        guard pipe(&notifyPipe) == 0, pipe(&releasePipe) == 0 else {
            Issue.record("pipe() failed: \(errno)")
            return
        }
        frozenNotifyFD.store(notifyPipe[1], ordering: .relaxed)
        frozenReleaseFD.store(releasePipe[0], ordering: .relaxed)
        let previousHandler = signal(SIGUSR2, freezeOnSignal)
        // Set when a signal sent to the writer was not seen to arrive: it is ignored from then on, rather than let the
        // default action end the process.
        var signalMayStillArrive = false
        defer {
            signal(SIGUSR2, signalMayStillArrive ? SIG_IGN : previousHandler)
            for descriptor in notifyPipe + releasePipe { close(descriptor) }
        }

        // The writer: adds and cancels an observer of the posted name, again and again.
        let writer = LockedBox<ThreadHandle?>(nil)
        let writerStopped = DispatchSemaphore(value: 0)
        startDetachedThread {
            // A new thread inherits its creator's signal mask, and libdispatch's workers block every signal.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGUSR2)
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
            writer.withLock { $0 = ThreadHandle(thread: pthread_self()) }
            while counters.value(2) == 0 {
                let observation = hub.addObserver(for: .number) { _ in }
                observation.cancel()
                counters.increment(1)
            }
            writerStopped.signal()
        }
        // The poster: posts once each time it is told to.
        let go = DispatchSemaphore(value: 0)
        let posted = DispatchSemaphore(value: 0)
        let posterStopped = DispatchSemaphore(value: 0)
        startDetachedThread {
            while go.wait(timeout: .now() + 120) == .success, counters.value(2) == 0 {
                hub.post(.number, payload: 1)
                posted.signal()
            }
            posterStopped.signal()
        }
        defer {
            _ = counters.exchange(2, 1)
            go.signal()
            #expect(waitBlocking(writerStopped, seconds: 10), "the writer thread did not stop")
            #expect(waitBlocking(posterStopped, seconds: 10), "the posting thread did not stop")
        }
        guard eventually({ writer.withLock { $0 } != nil }), let thread = writer.withLock({ $0 })?.thread else {
            Issue.record("the writer thread did not start")
            return
        }
        // One post with nothing frozen first: whatever the runtime sets up on a first call (type metadata, under its
        // locks) is done before a freeze could catch the writer holding one of those locks.
        go.signal()
        guard waitBlocking(posted, seconds: 10) else {
            Issue.record("the first post did not complete")
            return
        }

        var completedRounds = 0
        var failure: String?
        for round in 0..<Self.rounds {
            // Let the writer move on between freezes, so that each catches it somewhere else.
            let pairs = counters.value(1)
            guard eventually({ counters.value(1) > pairs }) else {
                failure = "round \(round): the writer made no progress"
                break
            }
            guard pthread_kill(thread, SIGUSR2) == 0, waitForByte(on: notifyPipe[0], seconds: 10) else {
                var byte: UInt8 = 1
                _ = write(releasePipe[1], &byte, 1)  // in case it freezes after all
                signalMayStillArrive = true
                failure = "round \(round): the writer thread did not freeze"
                break
            }
            // The writer is frozen, quite likely holding the hub's writer lock. Nothing here allocates.
            go.signal()
            let postCompleted = posted.wait(timeout: .now() + 5) == .success
            var byte: UInt8 = 1
            _ = write(releasePipe[1], &byte, 1)
            guard postCompleted else {
                _ = posted.wait(timeout: .now() + 10)  // the post goes on now that the writer does
                failure = "round \(round): a post waited for a thread frozen inside addObserver or cancel"
                break
            }
            completedRounds += 1
        }
        #expect(failure == nil, "\(failure ?? "")")
        if failure == nil {
            #expect(completedRounds == Self.rounds)
            #expect(counters.value(0) == Self.rounds + 1, "every post reached the observer")
        }
        withExtendedLifetime((ballast, target)) {}
    }
}

/// Waits until a byte can be read from `descriptor`, and reads it; `false` after `seconds` (generous: never a speed
/// claim).
private func waitForByte(on descriptor: Int32, seconds: Double) -> Bool {
    var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let deadline = DispatchTime.now() + seconds
    while DispatchTime.now() < deadline {
        let ready = poll(&request, 1, 100)
        if ready > 0 {
            var byte: UInt8 = 0
            return read(descriptor, &byte, 1) == 1
        }
        if ready < 0 && errno != EINTR { return false }
    }
    return false
}

#endif

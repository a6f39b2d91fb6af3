// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTestSupport
import ExecTesting
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `VirtualClock`, `ImmediateClock` and `UnimplementedClock` may be used from any thread: sleeps and reads from several
/// threads at once lose nothing and see time move only forward.
@Suite struct VirtualClocksAcrossThreadsTests {
    /// Nanoseconds of the start of virtual time.
    static let start: UInt64 = 125

    // Guarantees: G-virtual-clocks-any-thread
    @Test func concurrentSleepsOnOneImmediateClockNeverLoseTime() async {
        // Small under the Thread Sanitizer, where every access costs several times more.
        let sleepers = isThreadSanitizerActive ? 4 : 8
        let sleepsEach = isThreadSanitizerActive ? 100 : 400
        for _ in 0..<(isThreadSanitizerActive ? 2 : 5) {
            let clock = ImmediateClock()
            let behind = Atomic(0)
            let done = DispatchSemaphore(value: 0)
            // Tasks on a global queue of ExecKit's (several threads), each sleeping to its own interleaved deadlines.
            for sleeper in 0..<sleepers {
                Exec.utility.task { @Sendable in
                    for step in 0..<sleepsEach {
                        let deadline = VirtualClock.Instant(
                            nanoseconds: Self.start + UInt64(step * sleepers + sleeper + 1) * 1_000)
                        try? await clock.sleep(until: deadline)
                        // Whatever the others did meanwhile, time never goes back before a deadline slept to.
                        if clock.now < deadline { behind.add(1, ordering: .relaxed) }
                    }
                    done.signal()
                }
            }
            #expect(await Self.wait(for: sleepers, on: done), "a sleeper did not finish")
            #expect(behind.load(ordering: .relaxed) == 0, "a sleep was undone by a concurrent one")
            #expect(clock.now.nanoseconds == Self.start + UInt64(sleepers * sleepsEach) * 1_000)
            #expect(clock.elapsed == .microseconds(sleepers * sleepsEach))
        }
    }

    // Guarantees: G-virtual-clocks-any-thread
    @Test func aVirtualClockIsReadAndSleptOnFromOtherThreadsWhileTheCoordinatorRuns() {
        // Small under the Thread Sanitizer, where every access costs several times more.
        let sleepers = isThreadSanitizerActive ? 4 : 8
        let sleepsEach = isThreadSanitizerActive ? 25 : 100
        let readers = 2
        for round in 0..<(isThreadSanitizerActive ? 2 : 5) {
            let coordinator = TestCoordinator()
            let clock = coordinator.clock

            // Tasks on a global queue (other threads, several at once) sleep on the clock again and again. They run
            // elsewhere than the coordinator: each sleep is scheduled from their thread, and each wake-up resumes the
            // task on its own executor once the test's thread has moved time past it.
            let finished = Atomic(0)
            let wokeEarly = Atomic(0)
            for _ in 0..<sleepers {
                Exec.utility.task { @Sendable in
                    for _ in 0..<sleepsEach {
                        let deadline = clock.now.advanced(by: .milliseconds(1))
                        try? await clock.sleep(until: deadline)
                        if clock.now < deadline { wokeEarly.add(1, ordering: .relaxed) }
                    }
                    finished.add(1, ordering: .relaxed)
                }
            }

            // Other threads read the clock meanwhile: every read is at least the start of virtual time, and never
            // earlier than the one before.
            let stop = Atomic(false)
            let readersDone = DispatchSemaphore(value: 0)
            let badReads = Atomic(0)
            for _ in 0..<readers {
                startDetachedThread {
                    var previous = clock.now
                    while !stop.load(ordering: .relaxed) {
                        let now = clock.now
                        if now < previous || now.nanoseconds < Self.start { badReads.add(1, ordering: .relaxed) }
                        previous = now
                        sched_yield()  // two readers and the driving thread on two cores: leave the sleepers room
                    }
                    readersDone.signal()
                }
            }

            // The test's thread drives virtual time until every sleeper is done (a generous real-time bound: a
            // wake-up that was lost would leave its sleeper waiting for good).
            let giveUp = ContinuousClock.now + .seconds(30)
            while finished.load(ordering: .relaxed) < sleepers, ContinuousClock.now < giveUp {
                coordinator.advance(by: .milliseconds(1))
            }
            stop.store(true, ordering: .relaxed)
            for _ in 0..<readers { #expect(readersDone.wait(timeout: .now() + 10) == .success) }

            #expect(finished.load(ordering: .relaxed) == sleepers, "round \(round): a sleeper was never woken")
            #expect(wokeEarly.load(ordering: .relaxed) == 0, "round \(round): a sleeper woke before its deadline")
            #expect(badReads.load(ordering: .relaxed) == 0, "round \(round): a read went back in time")
        }
    }

    // Guarantees: G-virtual-clocks-any-thread
    @Test func anUnimplementedClockReportsEverySleepFromEveryThread() async {
        let sleepers = isThreadSanitizerActive ? 4 : 8
        let sleepsEach = isThreadSanitizerActive ? 50 : 200
        let reports = LockedBox<[String]>([])
        let clock = UnimplementedClock("shared") { message in reports.withLock { $0.append(message) } }
        let wrongNow = Atomic(0)
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<sleepers {
            Exec.utility.task { @Sendable in
                for _ in 0..<sleepsEach {
                    try? await clock.sleep(for: .seconds(1))
                    if clock.now.nanoseconds != Self.start { wrongNow.add(1, ordering: .relaxed) }
                }
                done.signal()
            }
        }
        #expect(await Self.wait(for: sleepers, on: done), "a sleeper did not finish")
        let messages = reports.withLock { $0 }
        #expect(messages.count == sleepers * sleepsEach, "a sleep went unreported")
        #expect(messages.allSatisfy { $0.contains("sleep was called on UnimplementedClock(\"shared\")") })
        #expect(wrongNow.load(ordering: .relaxed) == 0)
    }

    /// Waits, off the cooperative pool, until `semaphore` has been signalled `count` times, for at most 30 s in all.
    private static func wait(for count: Int, on semaphore: DispatchSemaphore) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let deadline = DispatchTime.now() + 30
                var signalled = 0
                while signalled < count, semaphore.wait(timeout: deadline) == .success { signalled += 1 }
                continuation.resume(returning: signalled == count)
            }
        }
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Synchronization
import Testing

/// The timer engine behind `Exec`'s Dispatch-backed contexts: one Dispatch source per queue, a heap of deadlines
/// behind it. What each test would catch is in its comment.
@Suite struct TimerEngineTests {
    /// Equal deadlines and a shuffle of distinct ones, on a serial queue: the firings come in deadline order, ties in
    /// scheduling order. (A heap that broke ties arbitrarily, or a source per timer, fails this by many positions.)
    // Guarantees: G-timer-serial-deadline-order
    @Test(arguments: [Exec.asyncQueue(), .syncQueue(), .main])
    func aSerialContextFiresInDeadlineOrderAndTiesInSchedulingOrder(context: Exec) {
        let count = 300
        var random = SplitMix64(seed: 0x4F72_6465_7201)
        // Ten distinct deadlines, 1 ms apart, so about thirty timers share each.
        let offsets = (0..<count).map { _ in Int(random.next() % 10) }
        let order = Recorder<Int>()
        let base = DispatchTime.now() + .milliseconds(30)
        let timers = context.alwaysAsync().invokeSync {
            (0..<count).map { id in
                context._engineTimer(deadline: base + .milliseconds(offsets[id])) { order.record(id) }
            }
        }
        #expect(order.wait(for: count))
        let expected = (0..<count).sorted { (offsets[$0], $0) < (offsets[$1], $1) }
        #expect(order.recorded == expected)
        withExtendedLifetime(timers) {}
    }

    /// The public API: timers scheduled with decreasing intervals (each 1 ms earlier than the one before) fire in
    /// deadline order. Each deadline is only known to lie between the clock read before and after its call, so the
    /// test checks every pair whose bounds do not overlap (nearly all of them, unless scheduling stalls for a
    /// millisecond).
    // Guarantees: G-timer-serial-deadline-order
    @Test func laterScheduledEarlierDeadlinesFireFirst() {
        let context = Exec.asyncQueue()
        let count = 50
        let order = Recorder<Int>()
        let (timers, bounds) = context.invokeSync {
            var bounds: [(earliest: UInt64, latest: UInt64)] = []
            let timers = (0..<count).map { id in
                let interval = UInt64(60 - id) * 1_000_000
                let before = DispatchTime.now().uptimeNanoseconds
                let timer = context.singleTimer(interval: .nanoseconds(Int64(interval))) { order.record(id) }
                bounds.append((before + interval, DispatchTime.now().uptimeNanoseconds + interval))
                return timer
            }
            return (timers, bounds)
        }
        #expect(order.wait(for: count))
        var position = Array(repeating: 0, count: count)
        for (index, id) in order.recorded.enumerated() { position[id] = index }
        var checked = 0
        for first in 0..<count {
            for second in 0..<count where bounds[first].latest < bounds[second].earliest {
                checked += 1
                #expect(position[first] < position[second], "timer \(first) was due before \(second) but fired after")
            }
        }
        #expect(checked > 0)
        withExtendedLifetime(timers) {}
    }

    /// No handler runs before its deadline, on a global queue, a private serial queue and the main queue. (An engine
    /// that fired everything due within the leeway window, or armed the source late and fired early, fails.)
    // Guarantees: G-timer-never-early
    @Test(arguments: [Exec.utility, .asyncQueue(), .main])
    func timersNeverFireEarly(context: Exec) {
        let count = 400
        var random = SplitMix64(seed: 0x4561_726C_79)
        let early = Atomic(0)
        let fired = Recorder<Int>()
        var timers: [any Lifetime] = []
        for id in 0..<count {
            let interval = Int(random.next() % 40_000)  // up to 40 ms, in microseconds
            let leeway = Int(random.next() % 5_000)
            let start = DispatchTime.now()
            timers.append(
                context.singleTimer(interval: .microseconds(interval), leeway: .microseconds(leeway)) {
                    let elapsed = DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds
                    if elapsed < UInt64(interval) * 1_000 { early.add(1, ordering: .relaxed) }
                    fired.record(id)
                })
        }
        #expect(fired.wait(for: count))
        #expect(early.load(ordering: .relaxed) == 0, "timers fired before their deadline")
        #expect(Set(fired.recorded).count == count, "a one-shot timer fired twice")
    }

    /// A handler that cancels a timer due in the same wake-up (same deadline, scheduled later) on a serial queue: the
    /// cancelled timer never runs. (An engine that took all due timers out first and ran them after fails this.)
    // Guarantees: G-timer-cancel-inside
    @Test(arguments: [Exec.asyncQueue(), .syncQueue(), .main])
    func cancellingFromInsideASerialContextStopsATimerDueInTheSameWakeUp(context: Exec) {
        let pairs = 100
        let ran = Recorder<Int>()
        let timers = LockedBox<[Int: any Lifetime]>([:])
        let deadline = DispatchTime.now() + .milliseconds(20)
        context.alwaysAsync().invokeSync {
            for pair in 0..<pairs {
                let canceller = context._engineTimer(deadline: deadline) {
                    let victim = timers.withLock { $0[2 * pair + 1] }
                    victim?.cancel()
                    ran.record(2 * pair)
                }
                let victim = context._engineTimer(deadline: deadline) { ran.record(2 * pair + 1) }
                timers.withLock {
                    $0[2 * pair] = canceller
                    $0[2 * pair + 1] = victim
                }
            }
        }
        #expect(ran.wait(for: pairs))
        // A victim would have run right after its canceller, in the same wake-up; one more turn of the queue to be
        // sure nothing is left.
        context.invokeSync {}
        #expect(ran.recorded == (0..<pairs).map { 2 * $0 }, "a timer cancelled from inside the context ran")
    }

    /// A periodic timer on a serial queue that was blocked for 300 ms runs once when the queue frees up, then on the
    /// next period: never the ~150 missed 2 ms ticks back to back. (An engine that re-armed each tick from the
    /// missed deadline instead of skipping to the next one after now fails this.)
    // Guarantees: G-timer-periodic-skips-missed
    @Test func aPeriodicTimerSkipsMissedPeriodsInsteadOfRunningThemBackToBack() {
        guard case .queue(let queue, _) = Exec.asyncQueue() else { return }
        let context = Exec.queue(queue, .serialAsync)
        let blockStarted = DispatchSemaphore(value: 0)
        let blockEnded = LockedBox<DispatchTime?>(nil)
        queue.async {
            blockStarted.signal()
            // The queue is busy for 300 ms: the scenario under test, not a wait for something.
            _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(300))
            blockEnded.withLock { $0 = .now() }
        }
        _ = blockStarted.wait(timeout: .now() + 10)
        let start = DispatchTime.now()
        let ticks = Recorder<DispatchTime>()
        let timer = context.periodicTimer(interval: .milliseconds(2)) { ticks.record(.now()) }
        #expect(ticks.wait(for: 5), "the timer must keep ticking after the stall")
        timer.cancel()
        let end = DispatchTime.now()
        guard let unblocked = blockEnded.withLock({ $0 }) else {
            Issue.record("the blocking block never finished")
            return
        }
        let recorded = ticks.recorded
        let burst = recorded.filter {
            $0 >= unblocked && $0.uptimeNanoseconds - unblocked.uptimeNanoseconds < 1_000_000
        }
        #expect(burst.count <= 2, "\(burst.count) ticks ran within 1 ms after the stall: missed ticks piled up")
        // At most one tick per elapsed period (plus one for the stalled firing).
        let periods = Int((end.uptimeNanoseconds - start.uptimeNanoseconds) / 2_000_000)
        #expect(recorded.count <= periods + 1)
    }

    /// Several due timers on a global queue run at once: each of two timers with the same deadline waits for the
    /// other to start. (An engine that ran due handlers one after another from the source's handler fails this after
    /// the 5 s timeout.)
    // Guarantees: G-timer-concurrent-parallel
    @Test func dueTimersOnAGlobalQueueDoNotWaitForEachOther() {
        let first = DispatchSemaphore(value: 0)
        let second = DispatchSemaphore(value: 0)
        let met = Recorder<Bool>()
        let deadline = DispatchTime.now() + .milliseconds(10)
        let timers = [
            Exec.utility._engineTimer(deadline: deadline) {
                first.signal()
                met.record(second.wait(timeout: .now() + 5) == .success)
            },
            Exec.utility._engineTimer(deadline: deadline) {
                second.signal()
                met.record(first.wait(timeout: .now() + 5) == .success)
            },
        ]
        #expect(met.wait(for: 2, timeout: 20))
        #expect(met.recorded == [true, true], "the second due handler waited for the first to return")
        withExtendedLifetime(timers) {}
    }

    /// A one-shot releases its handler once it fired and a pending timer releases it when cancelled, also among many
    /// other pending timers of the same engine (the heap's removal must not keep a reference).
    @Test(arguments: [
        Exec.utility, .asyncQueue(),
        .queue(DispatchQueue(label: "concurrent", attributes: .concurrent), .concurrentAsync),
    ])
    func handlersAreReleasedOnFireAndOnCancelAmongOtherTimers(context: Exec) {
        let others = (0..<100).map { _ in context.singleTimer(interval: .seconds(3_600)) {} }
        weak var weakFired: Token?
        weak var weakCancelled: Token?
        let fired = Recorder<Bool>()
        var cancelled: (any Lifetime)?
        var oneShot: (any Lifetime)?
        do {
            let firedToken = Token()
            let cancelledToken = Token()
            weakFired = firedToken
            weakCancelled = cancelledToken
            oneShot = context.singleTimer(interval: .milliseconds(1)) {
                firedToken.touch()
                fired.record(true)
            }
            cancelled = context.singleTimer(interval: .seconds(1_800)) { cancelledToken.touch() }
        }
        #expect(fired.wait())
        #expect(becomesNil { weakFired }, "a fired one-shot still holds its handler")
        cancelled?.cancel()
        #expect(weakCancelled == nil, "cancel() returned without releasing the handler")
        withExtendedLifetime((others, oneShot, cancelled)) {}
    }

    /// Private queues with timers (fired, cancelled, released) are freed once none is pending: the engine a queue
    /// owns holds the queue only while it has timers. (An engine that kept its source, or the queue, would leak all
    /// twenty queues.)
    // Guarantees: G-timer-private-queue-released
    @Test func privateQueuesAreReleasedOnceTheirTimersAreDone() {
        let queueCount = 20
        var weakReferences: [() -> DispatchQueue?] = []
        let fired = Recorder<Int>()
        do {
            var keep: [any Lifetime] = []
            for index in 0..<queueCount {
                let queue = DispatchQueue(label: "released.\(index)")
                weak let weakQueue = queue
                weakReferences.append { weakQueue }
                let context: Exec = index % 2 == 0 ? .queue(queue, .serialAsync) : .queue(queue, .mutex)
                for timer in 0..<10 {
                    let lifetime = context.singleTimer(interval: .milliseconds(1 + timer)) { fired.record(index) }
                    keep.append(lifetime)
                    // Far-future timers: one cancelled, one released.
                    context.singleTimer(interval: .seconds(3_600)) {}.cancel()
                    _ = context.periodicTimer(interval: .seconds(3_600)) {}
                }
            }
            #expect(fired.wait(for: queueCount * 10))
            withExtendedLifetime(keep) {}
        }
        for (index, reference) in weakReferences.enumerated() {
            #expect(becomesNil(reference), "queue \(index) was not released")
        }
    }

    /// Threads scheduling and cancelling on one serial queue and one global queue while timers fire: every timer runs
    /// at most once, every one not cancelled runs exactly once. Under the Thread Sanitizer, 4 × 500 timers instead of
    /// 4 × 5,000 (each operation costs several times more there); the sanitizer checks the engine's locking.
    @Test(arguments: [Exec.asyncQueue(), .utility])
    func concurrentSchedulingAndCancellingKeepsEveryTimerExactlyOnce(context: Exec) {
        let threads = 4
        let perThread = isThreadSanitizerActive ? 500 : 5_000
        let runs = AtomicCounters(count: threads * perThread)
        let cancelled = AtomicCounters(count: threads * perThread)
        let settled = DispatchGroup()
        let lifetimes = LockedBox<[any Lifetime]>([])
        let finished = runOnThreads(threads) { thread in
            var random = SplitMix64(seed: UInt64(thread) &+ 0x5374_7265_7373)
            var mine: [any Lifetime] = []
            for index in 0..<perThread {
                let id = thread * perThread + index
                let cancels = random.next() % 2 == 0
                if !cancels { settled.enter() }
                let timer = context.singleTimer(interval: .microseconds(Int(random.next() % 5_000))) {
                    runs.increment(id)
                    if !cancels { settled.leave() }
                }
                if cancels {
                    timer.cancel()
                    cancelled.increment(id)
                } else {
                    mine.append(timer)
                }
            }
            lifetimes.withLock { $0.append(contentsOf: mine) }
        }
        #expect(finished)
        #expect(settled.wait(timeout: .now() + 60) == .success, "not every uncancelled timer fired")
        let twice = (0..<runs.count).filter { runs.value($0) > 1 }
        let missed = (0..<runs.count).filter { cancelled.value($0) == 0 && runs.value($0) != 1 }
        #expect(twice.isEmpty, "\(twice.count) timers ran more than once")
        #expect(missed.isEmpty, "\(missed.count) uncancelled timers did not run exactly once")
    }
}

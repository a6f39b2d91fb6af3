// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Single and periodic timers and `invoke(after:)` on every kind of context, and the combinations that broke the timer
/// engine (issue #16): the main queue reached through `.queue(.main, …)` across idle periods, one queue used as a
/// concurrent and as a serial context, and a handler that blocks beside a fast timer.
enum TimerScenarios {
    static var all: [StressScenario] {
        let perContext = StressContext.all.flatMap { context in
            [
                StressScenario("singleTimer.\(context.name)", blocking: { try singleTimers($0, on: context) }),
                StressScenario("periodicTimer.\(context.name)", blocking: { try periodicTimers($0, on: context) }),
                StressScenario("invokeAfter.\(context.name)", blocking: { try delayedInvocations($0, on: context) }),
            ]
        }
        let concurrent = StressContext.all.filter { !$0.isSerial }.map { context in
            StressScenario(
                "blockingHandler.\(context.name)", blocking: { _ in try blockingHandlerBesideAFastTimer(on: context) })
        }
        return perContext + concurrent + [
            StressScenario("timers.mainQueueAcrossIdle", blocking: { _ in try mainQueueTimersAcrossIdlePeriods() }),
            StressScenario("timers.mixedTypesOnOneQueue", blocking: { try mixedTypesOnOneQueue($0) }),
        ]
    }

    /// `rounds` one-shot timers at random intervals under 3 ms: each fires exactly once, never early, in its context.
    /// Every fourth is cancelled right away with a 100 ms interval: none may fire unless its deadline passed before its
    /// `cancel()` returned (this thread descheduled for 100 ms, as happened under TSan on a loaded machine; a firing
    /// already taken may then still run), checked 150 ms after the last was scheduled.
    private static func singleTimers(_ rounds: Int, on stressContext: StressContext) throws -> String {
        let context = stressContext.make()
        var random = SplitMix64(seed: 0x5349_4E47_4C45)
        let runs = AtomicCounters(count: rounds)
        let early = AtomicCounters(count: 1)
        let outside = AtomicCounters(count: 1)
        var lateCancels = Set<Int>()  // cancelled timers whose deadline had passed when cancel() returned
        let kept = (0..<rounds).count { $0 % 4 != 0 }
        let fired = Countdown(kept)
        var lifetimes: [any Lifetime] = []
        lifetimes.reserveCapacity(rounds)
        for index in 0..<rounds {
            let cancelled = index % 4 == 0
            let nanoseconds = cancelled ? 100_000_000 : random.next() % 3_000_000
            let start = DispatchTime.now().uptimeNanoseconds
            let lifetime = context.singleTimer(interval: .nanoseconds(nanoseconds)) {
                if DispatchTime.now().uptimeNanoseconds - start < nanoseconds { early.increment(0) }
                if !stressContext.isInside(context) { outside.increment(0) }
                runs.increment(index)
                if !cancelled { fired.arrive() }
            }
            if cancelled {
                lifetime.cancel()
                if DispatchTime.now().uptimeNanoseconds - start >= nanoseconds { lateCancels.insert(index) }
            }
            lifetimes.append(lifetime)
        }
        let lastScheduled = DispatchTime.now()
        try check(fired.wait(), "only \(fired.count) of \(kept) timers fired within 60 s")
        // Past the cancelled timers' deadline: one whose cancel did not take would have fired by now.
        let pastCancelled = lastScheduled + .milliseconds(150)
        if DispatchTime.now() < pastCancelled {
            usleep(UInt32((pastCancelled.uptimeNanoseconds - DispatchTime.now().uptimeNanoseconds) / 1_000))
        }
        // Anything that would run twice, or run after its cancellation, has had a moment to do so.
        let settle = DispatchSemaphore(value: 0)
        context.invokeAsync { settle.signal() }
        _ = settle.wait(timeout: .now() + 10)
        for index in 0..<rounds where index % 4 != 0 {
            try check(runs.value(index) == 1, "timer \(index) ran \(runs.value(index)) times, not once")
        }
        for index in stride(from: 0, to: rounds, by: 4) where !lateCancels.contains(index) {
            try check(runs.value(index) == 0, "timer \(index) fired though cancelled before its deadline")
        }
        try check(early.value(0) == 0, "\(early.value(0)) timers fired before their interval had passed")
        try check(outside.value(0) == 0, "\(outside.value(0)) handlers ran outside \(stressContext.name)")
        withExtendedLifetime(lifetimes) {}
        return
            "\(kept) one-shot timers fired once each, in context and never early; \(rounds - kept) cancelled never"
    }

    /// Periodic timers at 1 ms whose handler takes 2 ms, until each has ticked five times: one handler never runs twice
    /// at once (a tick that comes while it runs is a missed period), on a serial context no two handlers run at once,
    /// and none runs after `cancel()` returned inside the context.
    // Guarantees: G-timer-periodic-not-reentrant
    private static func periodicTimers(_ rounds: Int, on stressContext: StressContext) throws -> String {
        let context = stressContext.make()
        try soloPeriodicTimerNeverOverlapsItself(on: context)
        let count = max(10, rounds / 1_000)
        let ticks = AtomicCounters(count: count)
        let running = AtomicCounters(count: count)
        let cancelledInside = AtomicCounters(count: count)
        let problems = AtomicCounters(count: 3)  // self-overlaps, context overlaps, runs after cancel
        let contextOverlaps = OverlapDetector()
        let warmedUp = Countdown(count)
        var lifetimes: [any Lifetime] = []
        for index in 0..<count {
            lifetimes.append(
                context.periodicTimer(interval: .milliseconds(1)) {
                    if running.increment(index) > 1 { problems.increment(0) }
                    if stressContext.isSerial { contextOverlaps.enter() }
                    if cancelledInside.value(index) != 0 { problems.increment(2) }
                    if ticks.increment(index) == 5 { warmedUp.arrive() }
                    usleep(2_000)  // longer than the period: the next tick comes while this run is under way
                    if stressContext.isSerial { contextOverlaps.leave() }
                    running.decrement(index)
                })
        }
        try check(warmedUp.wait(), "only \(warmedUp.count) of \(count) periodic timers ticked five times in 60 s")
        let timers = lifetimes
        if stressContext.isSerial {
            let cancelled = Countdown(count)
            for index in 0..<count {
                context.invokeAsync {
                    timers[index].cancel()
                    _ = cancelledInside.exchange(index, 1)
                    cancelled.arrive()
                }
            }
            try check(cancelled.wait(), "the cancellations did not all run in the context")
        } else {
            for timer in timers { timer.cancel() }
        }
        // Let any firing already on its way arrive: on a serial context it must find the handler gone.
        let totals = (0..<count).map { ticks.value($0) }
        usleep(20_000)
        let settled = DispatchSemaphore(value: 0)
        context.invokeAsync { settled.signal() }
        _ = settled.wait(timeout: .now() + 10)
        try check(problems.value(0) == 0, "\(problems.value(0)) runs overlapped another run of the same timer")
        try check(
            contextOverlaps.count == 0,
            "\(contextOverlaps.count) handlers ran beside another on serial \(stressContext.name)")
        try check(problems.value(2) == 0, "\(problems.value(2)) handlers ran after cancel() returned inside")
        if !stressContext.isSerial {
            // Outside the context, a firing already started may finish, and none starts later.
            let later = (0..<count).filter { ticks.value($0) > totals[$0] + 1 }
            try check(later.isEmpty, "\(later.count) timers kept ticking after cancel() returned")
        }
        return "\(count) periodic timers ticked \((0..<count).reduce(0) { $0 + ticks.value($1) }) times, never "
            + "overlapping themselves\(stressContext.isSerial ? " or each other, none after cancel" : "")"
    }

    /// One periodic timer alone, at 1 ms with a 3 ms handler, for 30 ticks: with the context's workers free, a tick
    /// that arrives while the handler runs would start a second run at once if the timer let it.
    private static func soloPeriodicTimerNeverOverlapsItself(on context: Exec) throws {
        let running = AtomicCounters(count: 1)
        let overlaps = AtomicCounters(count: 1)
        let ticked = Countdown(30)
        let timer = context.periodicTimer(interval: .milliseconds(1)) {
            if running.increment(0) > 1 { overlaps.increment(0) }
            usleep(3_000)
            running.decrement(0)
            ticked.arrive()
        }
        try check(ticked.wait(), "a lone periodic timer ticked only \(ticked.count) times in 60 s")
        timer.cancel()
        try check(
            overlaps.value(0) == 0, "a lone periodic timer's handler overlapped itself \(overlaps.value(0)) times")
    }

    /// `rounds` blocks delayed by random amounts under 2 ms: each runs once, in its context, never early.
    private static func delayedInvocations(_ rounds: Int, on stressContext: StressContext) throws -> String {
        let context = stressContext.make()
        var random = SplitMix64(seed: 0x4146_5445_52)
        let runs = AtomicCounters(count: rounds)
        let problems = AtomicCounters(count: 2)  // early, outside
        let done = Countdown(rounds)
        for index in 0..<rounds {
            let delay = UInt64(random.next() % 2_000_000)
            let start = DispatchTime.now().uptimeNanoseconds
            context.invoke(after: .nanoseconds(delay)) {
                if DispatchTime.now().uptimeNanoseconds - start < delay { problems.increment(0) }
                if !stressContext.isInside(context) { problems.increment(1) }
                runs.increment(index)
                done.arrive()
            }
        }
        try check(done.wait(), "only \(done.count) of \(rounds) delayed blocks ran within 60 s")
        let settled = DispatchSemaphore(value: 0)
        context.invokeAsync { settled.signal() }
        _ = settled.wait(timeout: .now() + 10)
        let repeated = (0..<rounds).filter { runs.value($0) != 1 }
        try check(repeated.isEmpty, "\(repeated.count) delayed blocks ran more than once")
        try check(problems.value(0) == 0, "\(problems.value(0)) delayed blocks ran before their delay")
        try check(problems.value(1) == 0, "\(problems.value(1)) delayed blocks ran outside \(stressContext.name)")
        return "\(rounds) delayed blocks ran once each, in context, never early"
    }

    /// A handler that blocks for 1 s must not hold up an unrelated 20 ms timer on a concurrent context: the engine
    /// promises that due handlers run in parallel there. Two rounds; the bound (500 ms) is generous.
    // Guarantees: G-timer-concurrent-parallel
    private static func blockingHandlerBesideAFastTimer(on stressContext: StressContext) throws -> String {
        let context = stressContext.make()
        var latencies: [UInt64] = []
        for _ in 0..<2 {
            let slowDone = DispatchSemaphore(value: 0)
            let fastDone = DispatchSemaphore(value: 0)
            let start = DispatchTime.now().uptimeNanoseconds
            let firedAt = AtomicCounters(count: 1)
            let slow = context.singleTimer(interval: .milliseconds(1)) {
                usleep(1_000_000)
                slowDone.signal()
            }
            let fast = context.singleTimer(interval: .milliseconds(20)) {
                _ = firedAt.exchange(0, Int(DispatchTime.now().uptimeNanoseconds - start))
                fastDone.signal()
            }
            try check(fastDone.wait(timeout: .now() + 10) == .success, "the fast timer never fired")
            let latency = UInt64(firedAt.value(0))
            try check(
                latency < 500_000_000,
                "a 20 ms timer fired after \(latency / 1_000_000) ms, behind a handler that blocks for 1 s")
            latencies.append(latency / 1_000_000)
            try check(slowDone.wait(timeout: .now() + 10) == .success, "the blocking handler never finished")
            withExtendedLifetime((slow, fast)) {}
        }
        return "a 20 ms timer beside a 1 s handler fired after \(latencies.map { "\($0) ms" }.joined(separator: ", "))"
    }

    /// The main queue through `.queue(DispatchQueue.main, type)`, a new wrapper each time as on Linux, used again after
    /// the engine went idle (and let its Dispatch source go): four rounds per type, 150 ms apart.
    private static func mainQueueTimersAcrossIdlePeriods() throws -> String {
        let types: [ExecutionType] = [.serialAsync, .concurrentAsync, .mutex, .conditionallyAsync(true)]
        for round in 0..<4 {
            for type in types {
                let fired = DispatchSemaphore(value: 0)
                let onMain = AtomicCounters(count: 1)
                let timer = Exec.queue(DispatchQueue.main, type).singleTimer(interval: .milliseconds(5), leeway: .zero)
                {
                    if DispatchQueue.isMainQueueCurrent { onMain.increment(0) }
                    fired.signal()
                }
                try check(
                    fired.wait(timeout: .now() + 10) == .success,
                    "round \(round): a \(type) main-queue timer never fired"
                )
                try check(onMain.value(0) == 1, "round \(round): a \(type) main-queue timer fired off the main queue")
                withExtendedLifetime(timer) {}
            }
            // Longer than an idle private-queue engine keeps its source, so the next round makes a new one (the
            // `.concurrentAsync` context's engine; the serial types share the main queue's engine, kept for good).
            usleep(150_000)
        }
        return "4 rounds of main-queue timers of \(types.count) types, each after the engines went idle"
    }

    /// One private queue used first as a concurrent context, then as a serial one: the serial context's timers must
    /// still fire in deadline order, and one cancelled by an earlier handler of the same wake-up must not run.
    // Guarantees: G-timer-serial-deadline-order
    private static func mixedTypesOnOneQueue(_ rounds: Int) throws -> String {
        let queue = DispatchQueue(label: "stress.mixed")
        let concurrentFired = DispatchSemaphore(value: 0)
        let first = Exec.queue(queue, .concurrentAsync).singleTimer(interval: .milliseconds(1)) {
            concurrentFired.signal()
        }
        try check(concurrentFired.wait(timeout: .now() + 10) == .success, "the concurrent context's timer never fired")
        withExtendedLifetime(first) {}
        let serial = Exec.queue(queue, .serialAsync)
        let pairsPerBatch = 100
        let batches = max(1, rounds / pairsPerBatch)
        let lateRuns = AtomicCounters(count: 1)
        for batch in 0..<batches {
            let order = LockedBox<[Int]>([])
            let arrived = Countdown(pairsPerBatch)
            // Scheduled from inside the queue, which the serial engine fires on: nothing fires before every pair is
            // scheduled and wired, however long this thread is descheduled meanwhile.
            let lifetimes = serial.invokeSync { () -> [any Lifetime] in
                var lifetimes: [any Lifetime] = []
                for pair in 0..<pairsPerBatch {
                    // Equal intervals, so the deadlines follow the scheduling order: A then B of each pair, pair by pair.
                    let victim = LockedBox<(any Lifetime)?>(nil)
                    lifetimes.append(
                        serial.singleTimer(interval: .milliseconds(2), leeway: .zero) {
                            order.withLock { $0.append(pair) }
                            victim.withLock { $0?.cancel() }
                            arrived.arrive()
                        })
                    let cancelledByA = serial.singleTimer(interval: .milliseconds(2), leeway: .zero) {
                        lateRuns.increment(0)
                    }
                    victim.withLock { $0 = cancelledByA }
                    lifetimes.append(cancelledByA)
                }
                return lifetimes
            }
            try check(arrived.wait(), "batch \(batch): only \(arrived.count) of \(pairsPerBatch) timers fired")
            let fired = order.withLock { $0 }
            try check(fired == Array(0..<pairsPerBatch), "batch \(batch): fired out of deadline order: \(fired)")
            let settled = DispatchSemaphore(value: 0)
            serial.invokeAsync { settled.signal() }
            _ = settled.wait(timeout: .now() + 10)
            try check(lateRuns.value(0) == 0, "\(lateRuns.value(0)) timers ran after an earlier handler cancelled them")
            withExtendedLifetime(lifetimes) {}
        }
        return "\(batches * pairsPerBatch) pairs of timers on a serial context of a queue first used as a concurrent "
            + "one: deadline order kept, no run after a cancel inside"
    }
}

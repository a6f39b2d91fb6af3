// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTestSupport
import Testing

@testable import ExecKit

/// The timer engine's decisions, tested with no Dispatch, no clock and no thread: `TimerSchedule` is given the time,
/// and its source actions are checked as values. What each test would catch is in its comment.
@Suite struct TimerScheduleTests {
    /// Coalescing: a new timer moves the source earlier, or narrows its leeway, only as far as every timer already in
    /// the window allows; one due later than the window leaves it alone. (An engine that armed for the newest timer
    /// alone would fire the first one late: the second expectation fails.)
    // Guarantees: G-timer-leeway-never-delays-tight
    @Test func insertingNarrowsTheWindowOnlyAsFarAsNeeded() {
        var schedule = TimerSchedule(releasesSourceWhenIdle: false)
        let timers = TestTimers()
        #expect(schedule.inserting(timers.make(deadline: 1_000, leeway: 500)) == .arm(1_000, 500))
        // Due later but less tolerant: the window closes at its latest.
        #expect(schedule.inserting(timers.make(deadline: 1_200, leeway: 50)) == .arm(1_000, 250))
        // Due earlier: the window opens earlier and still closes by 1,250.
        #expect(schedule.inserting(timers.make(deadline: 900, leeway: 1_000)) == .arm(900, 350))
        // Due after the window, or inside it with room to spare: nothing to do.
        #expect(schedule.inserting(timers.make(deadline: 5_000, leeway: 0)) == .keep)
        #expect(schedule.inserting(timers.make(deadline: 1_100, leeway: 1_000)) == .keep)
        timers.cancelAll(in: &schedule)
    }

    /// The idle wake-up of an engine that lets its source go: the first idle moment re-arms the source to wake within
    /// the grace, later ones cost nothing, and the wake-up that finds nothing tears the source down. (An engine that
    /// tore down at once would make a source per timer in a schedule+cancel loop; one that never did would keep the
    /// queue alive.)
    // Guarantees: G-timer-private-queue-released
    @Test func anIdleEngineWakesOnceWithinTheGraceThenLetsTheSourceGo() {
        var schedule = TimerSchedule(releasesSourceWhenIdle: true)
        let timers = TestTimers()
        let hour: UInt64 = 3_600_000_000_000
        let first = timers.make(deadline: hour, leeway: 0)
        #expect(schedule.inserting(first) == .arm(hour, 0))
        let grace = TimerSchedule.idleGrace
        // TimersAndLifetimes promises the source goes at most 0.2 s after the last timer is cancelled: the wake-up's
        // deadline plus its leeway, both the grace (asserted just below).
        #expect(2 * grace <= 200_000_000, "a private queue's source may outlive its last timer by more than 0.2 s")
        #expect(schedule.cancelling(first, now: { 10 }) == .arm(10 + grace, grace))
        let armedForIdle = schedule.isArmedForIdle
        #expect(armedForIdle)
        // A schedule+cancel inside the grace: the wake-up already covers it.
        let second = timers.make(deadline: hour, leeway: 0)
        #expect(schedule.inserting(second) == .keep)
        let readsNoClock = schedule.cancelling(second) {
            Issue.record("no clock read needed")
            return 0
        }
        #expect(readsNoClock == .keep)
        // The wake-up finds nothing pending: the source goes.
        schedule.sourceFired()
        #expect(schedule.armingForEarliest(now: 10 + grace) == .tearDown)
        let keptSource = schedule.hasSource
        #expect(!keptSource)
        // The next timer makes a source again.
        #expect(schedule.inserting(timers.make(deadline: hour, leeway: 0)) == .arm(hour, 0))
        timers.cancelAll(in: &schedule)
    }

    /// A shared engine (the main queue's, the global queues') keeps its source when idle.
    @Test func aSharedEngineKeepsItsSource() {
        var schedule = TimerSchedule(releasesSourceWhenIdle: false)
        let timers = TestTimers()
        let timer = timers.make(deadline: 1_000, leeway: 0)
        _ = schedule.insert(timer)
        #expect(schedule.cancelling(timer, now: { 0 }) == .keep)
        schedule.sourceFired()
        #expect(schedule.armingForEarliest(now: 1_000) == .keep)
        let keptSource = schedule.hasSource
        #expect(keptSource)
    }

    /// Issue #29, defect 1, at the level of the schedule: a concurrent engine's due timer waiting for its job is
    /// reached by `cancel`, which hands back its handler (so the engine releases it before `cancel()` returns), and
    /// the job then finds nothing. The other due timers' jobs run theirs, in deadline order.
    // Guarantees: G-timer-cancel-concurrent
    @Test(arguments: [false, true])
    func cancelReachesAWaitingFiring(periodic: Bool) {
        var schedule = TimerSchedule(releasesSourceWhenIdle: false)
        let timers = TestTimers()
        let log = FiringLog()
        let before = timers.make(deadline: 100, leeway: 0) { log.fired(0) }
        let cancelled = timers.make(deadline: 100, period: periodic ? 50 : 0, leeway: 0) { log.fired(1) }
        let after = timers.make(deadline: 101, leeway: 0) { log.fired(2) }
        for timer in [before, cancelled, after] { _ = schedule.insert(timer) }
        schedule.sourceFired()
        #expect(schedule.moveDueToReady(now: 200) == 3)
        let (handler, _) = schedule.cancel(cancelled, now: { 200 })
        #expect(handler != nil)
        #expect(cancelled.takeUnretainedValue().handler == nil)
        var ran = 0
        for _ in 0..<3 {
            guard let due = schedule.takeReady() else { continue }
            ran += 1
            due.handler?()
        }
        #expect(ran == 2)
        #expect(log.ids == [0, 2])
        #expect(schedule.ready.count == 0)
    }

    /// Periodic timers: the next deadline is the first multiple of the period after the handler returned (no drift,
    /// missed periods skipped); cancelled while running, a timer is not put back.
    // Guarantees: G-timer-periodic-no-drift, G-timer-periodic-skips-missed
    @Test func periodicTimersGoBackAtTheNextMultipleOfThePeriod() {
        var schedule = TimerSchedule(releasesSourceWhenIdle: false)
        let timers = TestTimers()
        let timer = timers.make(deadline: 100, period: 50, leeway: 0)
        _ = schedule.insert(timer)
        schedule.sourceFired()
        let due = schedule.takeNextDue(now: 100)
        #expect(due?.periodic?.toOpaque() == timer.toOpaque())
        #expect(schedule.takeNextDue(now: 100) == nil)
        // The handler returned at 260: periods due at 150, 200 and 250 were missed; next is 300, not 310.
        let putBack = schedule.reschedule(timer, sequence: due!.sequence, now: 260)
        #expect(putBack)
        #expect(timer.takeUnretainedValue().deadline == 300)
        #expect(schedule.armingForEarliest(now: 260) == .arm(300, 0))
        // Cancelled while its handler runs: not put back, and the handler is released by the cancel.
        let running = schedule.takeNextDue(now: 300)!
        #expect(schedule.cancel(timer, now: { 300 }).handler != nil)
        let putBackAfterCancel = schedule.reschedule(timer, sequence: running.sequence, now: 320)
        let heapIsEmpty = schedule.heap.isEmpty
        #expect(!putBackAfterCancel && heapIsEmpty)
    }

    /// 100,000 random operations (schedule one-shot and periodic timers, cancel, fire serially or concurrently, run
    /// the jobs and return from the handlers in any order) against a model of what the engine promises:
    /// - no timer fires before its deadline, none after cancel, a one-shot at most once, a periodic one never twice at
    ///   once;
    /// - a serial engine fires due timers in (deadline, scheduling) order;
    /// - between operations, a pending timer means the source is armed, and the source fires by every pending timer's
    ///   deadline plus leeway (so the clock, advanced to any moment the source may fire, never makes one late);
    /// - the schedule's own view of its source matches the actions it returned.
    ///
    /// The four cases run one after another (`.serialized`): each keeps a core busy for seconds in a debug build, and the
    /// suite's timing-sensitive tests run beside them on this 2-core machine.
    @Test(.serialized, arguments: [false, true], [false, true])
    func randomOperationsKeepEveryPromise(concurrent: Bool, releasesSourceWhenIdle: Bool) {
        var random = SplitMix64(seed: concurrent ? 0x5EED_0001 : 0x5EED_0002)
        var schedule = TimerSchedule(releasesSourceWhenIdle: releasesSourceWhenIdle)
        var checker = ScheduleChecker()
        for _ in 0..<25_000 {
            checker.step(&schedule, concurrent: concurrent, random: &random)
            if checker.failed { break }
        }
        checker.finish(&schedule)
        #expect(checker.firings > 1_000, "the operations fired timers")
    }
}

/// A source action as the tests compare it, with the deadline and leeway of an arming (which the schedule holds).
enum Arming: Equatable {
    case keep
    case arm(UInt64, UInt64)
    case tearDown
}

extension TimerSchedule {
    func arming(_ action: SourceAction) -> Arming {
        switch action {
        case .keep: .keep
        case .arm: .arm(armedDeadline, armedLeeway)
        case .tearDown: .tearDown
        }
    }

    mutating func inserting(_ timer: Unmanaged<EngineTimer>) -> Arming {
        let action = insert(timer)
        return arming(action)
    }

    mutating func cancelling(_ timer: Unmanaged<EngineTimer>, now: () -> UInt64) -> Arming {
        let action = cancel(timer, now: now).action
        return arming(action)
    }

    mutating func armingForEarliest(now: UInt64) -> Arming {
        let action = armForEarliest(now: { now })
        return arming(action)
    }
}

/// Records which test timers fired, in order.
final class FiringLog: @unchecked Sendable {
    // Unchecked: the schedule tests are single-threaded.
    private(set) var ids: [Int] = []
    func fired(_ id: Int) { ids.append(id) }
}

/// Engine timers for a schedule under test, kept alive by the test and finished before they are released (a timer
/// released while pending would ask its engine, not the test's schedule, to cancel it).
final class TestTimers {
    /// An engine for the timers to name; its own schedule is never used.
    private let engine = TimerEngine(sharedQueue: nil, firing: .concurrent)
    private var made: [EngineTimer] = []

    func make(
        deadline: UInt64, period: UInt64 = 0, leeway: UInt32, handler: @escaping @Sendable () -> Void = {}
    ) -> Unmanaged<EngineTimer> {
        let timer = EngineTimer(engine: engine, deadline: deadline, period: period, leeway: leeway, handler: handler)
        made.append(timer)
        return Unmanaged.passUnretained(timer)
    }

    func cancelAll(in schedule: inout TimerSchedule) {
        for timer in made { _ = schedule.cancel(Unmanaged.passUnretained(timer), now: { 0 }) }
    }
}

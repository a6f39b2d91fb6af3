// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTestSupport
import Testing

@testable import ExecKit

/// Drives a `TimerSchedule` with random operations, as its engine would, and checks each result against a model of
/// the timers (see `TimerScheduleTests.randomOperationsKeepEveryPromise`). Time advances only when the simulated source
/// fires, to a moment inside the window it is armed for, as Dispatch allows.
struct ScheduleChecker {
    private enum State { case pending, ready, underway, finished }

    private struct ModelTimer {
        let timer: EngineTimer
        var deadline: UInt64
        let period: UInt64
        let leeway: UInt64
        var sequence: UInt64
        var state = State.pending
    }

    private let log = FiringLog()
    private var timers: [ModelTimer] = []
    /// The ids of the timers not finished, so that each step costs what the live timers cost.
    private var live: [Int] = []
    private var now: UInt64 = 0
    private var nextSequence: UInt64 = 0
    /// The concurrent engine's ready list, as timer ids, in the order the jobs take them.
    private var readyIDs: [Int] = []
    /// Periodic timers whose handler ran on a concurrent engine and has not returned yet: (id, the due firing).
    private var underway: [(id: Int, due: TimerSchedule.DueTimer)] = []
    /// The simulated source: whether it exists.
    private var sourceExists = false
    private(set) var firings = 0
    /// Set by the first failed check, which records an issue; the later ones stay quiet.
    private let outcome = Outcome()
    var failed: Bool { outcome.failed }

    mutating func step(_ schedule: inout TimerSchedule, concurrent: Bool, random: inout SplitMix64) {
        switch random.next() % 100 {
        case 0..<35: insert(&schedule, random: &random)
        case 35..<55: cancel(&schedule, random: &random)
        case 55..<75: fireSource(&schedule, concurrent: concurrent, random: &random)
        case 75..<92: runJob(&schedule)
        default: returnUnderway(&schedule, random: &random)
        }
        live.removeAll { timers[$0].state == .finished }
        checkInvariants(schedule)
    }

    /// Cancels every timer, lets every job and handler finish, and checks that an engine that releases its source
    /// when idle lets it go.
    mutating func finish(_ schedule: inout TimerSchedule) {
        for id in live where timers[id].state != .finished { cancel(id, in: &schedule) }
        while !readyIDs.isEmpty { runJob(&schedule) }
        while !underway.isEmpty { returnUnderway(&schedule, at: 0) }
        #expect(schedule.heap.isEmpty && schedule.ready.count == 0)
        for _ in 0..<3 where schedule.hasSource && schedule.armedDeadline != .max {
            now = max(now, schedule.armedDeadline)
            schedule.sourceFired()
            apply(schedule.armForEarliest(now: { [now] in now }), schedule)
        }
        let keptSource = schedule.hasSource
        if schedule.releasesSourceWhenIdle { #expect(!keptSource, "an idle engine lets its source go") }
    }

    // MARK: - Operations

    private mutating func insert(_ schedule: inout TimerSchedule, random: inout SplitMix64) {
        let deadline = now + random.next() % 2_000
        let leeway = random.next() % 4 == 0 ? 0 : random.next() % 300
        let period = random.next() % 5 == 0 ? 1 + random.next() % 500 : 0
        let id = timers.count
        let timer = EngineTimer(
            engine: Self.engine, deadline: deadline, period: period, leeway: UInt32(leeway)
        ) { [log] in log.fired(id) }
        live.append(id)
        timers.append(
            ModelTimer(timer: timer, deadline: deadline, period: period, leeway: leeway, sequence: nextSequence))
        nextSequence += 1
        apply(schedule.insert(Unmanaged.passUnretained(timer)), schedule)
        check(timer.sequence == timers[id].sequence, "sequence of timer \(id)")
    }

    private mutating func cancel(_ schedule: inout TimerSchedule, random: inout SplitMix64) {
        guard !live.isEmpty else { return }
        cancel(live[Int(random.next() % UInt64(live.count))], in: &schedule)
    }

    private mutating func cancel(_ id: Int, in schedule: inout TimerSchedule) {
        let (handler, action) = schedule.cancel(Unmanaged.passUnretained(timers[id].timer)) { [now] in now }
        check(handler != nil, "cancelling live timer \(id) hands back its handler")
        check(timers[id].timer.handler == nil, "a cancelled timer keeps no handler")
        timers[id].state = .finished
        apply(action, schedule)
    }

    /// The source fires at a moment inside its window: the due timers fire (serially) or move to the ready list.
    private mutating func fireSource(_ schedule: inout TimerSchedule, concurrent: Bool, random: inout SplitMix64) {
        guard sourceExists, schedule.armedDeadline != .max else { return }
        check(schedule.armedDeadline >= now, "the source is never armed in the past")
        now = max(now, schedule.armedDeadline + random.next() % (schedule.armedLeeway + 1))
        schedule.sourceFired()
        let due = live.filter { timers[$0].state == .pending && timers[$0].deadline <= now }
            .sorted { (timers[$0].deadline, timers[$0].sequence) < (timers[$1].deadline, timers[$1].sequence) }
        if concurrent {
            check(schedule.moveDueToReady(now: now) == due.count, "every due timer moves to the ready list")
            for id in due { timers[id].state = .ready }
            readyIDs += due
        } else {
            for id in due {
                guard let firing = schedule.takeNextDue(now: now) else {
                    check(false, "timer \(id) is due at \(now) but was not taken")
                    return
                }
                run(firing, expecting: id)
                if let periodic = firing.periodic {
                    check(schedule.reschedule(periodic, sequence: firing.sequence, now: now), "rescheduled \(id)")
                    reschedule(id)
                }
            }
            check(schedule.takeNextDue(now: now) == nil, "nothing else is due at \(now)")
        }
        apply(schedule.armForEarliest(now: { [now] in now }), schedule)
    }

    /// One job of a concurrent firing takes the front of the ready list.
    private mutating func runJob(_ schedule: inout TimerSchedule) {
        guard !readyIDs.isEmpty else { return }
        let id = readyIDs.removeFirst()
        let firing = schedule.takeReady()
        guard timers[id].state == .ready else {
            check(firing == nil, "timer \(id), cancelled while it waited, does not run")
            return
        }
        guard let firing else { return check(false, "timer \(id) waited in the ready list but did not run") }
        run(firing, expecting: id)
        if firing.periodic != nil {
            timers[id].state = .underway
            underway.append((id, firing))
        }
    }

    private mutating func returnUnderway(_ schedule: inout TimerSchedule, random: inout SplitMix64) {
        guard !underway.isEmpty else { return }
        returnUnderway(&schedule, at: Int(random.next() % UInt64(underway.count)))
    }

    /// A concurrent engine's periodic handler returns: its timer goes back, unless it was cancelled meanwhile.
    private mutating func returnUnderway(_ schedule: inout TimerSchedule, at position: Int) {
        let (id, firing) = underway.remove(at: position)
        guard let periodic = firing.periodic else { return }
        let action = schedule.periodicReturned(periodic, sequence: firing.sequence, now: now)
        if timers[id].state == .underway { reschedule(id) }
        apply(action, schedule)
    }

    // MARK: - The model

    /// Calls a firing's handler and checks it is `id`'s, due, not cancelled, and not already running.
    private mutating func run(_ firing: TimerSchedule.DueTimer, expecting id: Int) {
        let model = timers[id]
        check(model.state == .pending || model.state == .ready, "timer \(id) fires from \(model.state)")
        check(model.deadline <= now, "timer \(id) fires at \(now), before its deadline \(model.deadline)")
        check(firing.sequence == model.sequence, "timer \(id) fires in scheduling order")
        firing.handler?()
        check(log.ids.last == id, "the handler that ran is timer \(id)'s")
        firings += 1
        if model.period == 0 {
            timers[id].state = .finished
            check(timers[id].timer.handler == nil, "a fired one-shot keeps no handler")
        }
    }

    /// The first multiple of the period after now, from the previous deadline.
    private mutating func reschedule(_ id: Int) {
        let (deadline, period) = (timers[id].deadline, timers[id].period)
        let periods = now < deadline + period ? 1 : (now - deadline) / period + 1
        timers[id].deadline = deadline + periods * period
        timers[id].sequence = nextSequence
        timers[id].state = .pending
        nextSequence += 1
        check(timers[id].timer.deadline == timers[id].deadline, "timer \(id) goes back one period after now")
    }

    private mutating func apply(_ action: TimerSchedule.SourceAction, _ schedule: borrowing TimerSchedule) {
        switch action {
        case .keep: break
        case .arm:
            sourceExists = true
            check(schedule.armedDeadline != .max, "an arming has a deadline")
        case .tearDown:
            check(sourceExists, "only an existing source is torn down")
            check(schedule.releasesSourceWhenIdle, "a shared engine keeps its source")
            // The engine re-arms for a returning periodic timer with no queue to make a source on.
            let periodicUnderway = live.contains {
                timers[$0].period != 0 && [.ready, .underway].contains(timers[$0].state)
            }
            check(!periodicUnderway, "the source stays while a periodic firing is under way")
            sourceExists = false
        }
    }

    private mutating func checkInvariants(_ schedule: borrowing TimerSchedule) {
        check(schedule.hasSource == sourceExists, "the schedule's view of its source matches its actions")
        // One pass, no allocation: this runs after every one of the 100,000 operations.
        var pendingCount = 0
        var latest = UInt64.max
        var busy = false
        for id in live {
            switch timers[id].state {
            case .pending:
                pendingCount += 1
                latest = min(latest, timers[id].deadline + timers[id].leeway)
            case .ready, .underway: busy = true
            case .finished: break
            }
        }
        check(schedule.heap.count == pendingCount, "the heap holds the pending timers")
        guard pendingCount > 0 else {
            if schedule.releasesSourceWhenIdle && !busy && sourceExists {
                check(schedule.armedDeadline != .max, "an idle engine's source is armed to wake and go")
            }
            return
        }
        check(sourceExists && schedule.armedDeadline != .max, "a pending timer means an armed source")
        check(
            schedule.armedDeadline + schedule.armedLeeway <= latest,
            "the source fires by every pending timer's deadline plus leeway")
    }

    private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        guard !condition, !outcome.failed else { return }
        outcome.failed = true
        Issue.record("after \(firings) firings at \(now): \(message())")
    }

    private final class Outcome {
        var failed = false
    }

    /// An engine for the timers to name; its own schedule is never used (every timer finishes in the test's).
    private static let engine = TimerEngine(sharedQueue: nil, firing: .concurrent)
}

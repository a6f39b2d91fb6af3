// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

/// Many timers on one serial context, cancelled from inside that context at random moments while others fire.
///
/// The guarantee under test: once `cancel()` has returned inside a serial context, the handler never runs, even when
/// its firing was already on its way. Each cancellation runs in the context as `timer.cancel(); mark(id)`, and each
/// handler, also in the context, checks its id's mark: a handler that finds it set ran after `cancel()` returned.
/// The random choices come from a fixed seed, so every run cancels the same timers at the same offsets.
///
/// The race needs a firing to reach the context *after* a cancellation was queued there but *before* it ran. An idle
/// context runs each block at once, so the window would be a few microseconds; the tests keep the context busy half of
/// the time (2 ms stalls every 4 ms), and cancel many timers just before their deadline, so that cancellations and
/// firings pile up behind a stall in either order. (Checked: default timers that took the handler out of its slot when
/// the Dispatch timer fired, instead of in the context, fail the custom-context cases by hundreds of late runs.)
///
/// The cases run one at a time: two at once (20,000 Dispatch sources) held up the global queue where default timers
/// fire by a quarter of a second, and by then every cancellation had run, so the race rarely happened.
// Guarantees: G-thread-safety-any-thread
@Suite(.serialized) struct TimerStressTests {
    /// Under the Thread Sanitizer, 2,000 timers: creating a Dispatch source there costs about ten times more.
    static let oneShotCount = isThreadSanitizerActive ? 2_000 : 10_000
    static let periodicCount = isThreadSanitizerActive ? 100 : 300

    /// The serial context the timers run on. `Exec`'s own queues fire a Dispatch timer straight on the queue; other
    /// contexts get the default timers, which fire on a global queue and hop into the context: two different paths
    /// to the same guarantee.
    enum TimerContext: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case asyncQueue
        case customSerialContext

        var testDescription: String { rawValue }

        func makeContext() -> Exec {
            switch self {
            case .asyncQueue: return .asyncQueue()
            case .customSerialContext: return .custom(SerialQueueWithIdentity())
            }
        }
    }

    @Test(arguments: TimerContext.allCases)
    func oneShotTimersNeverRunAfterCancelAndTheOthersRunExactlyOnce(on timerContext: TimerContext) {
        let context = timerContext.makeContext()
        let count = Self.oneShotCount
        var random = SplitMix64(seed: 0x4578_6563_4B69_7401)
        // Deadlines spread over 200 ms. Half of the timers are never cancelled; a quarter are cancelled at a moment
        // spread over 250 ms (well before the deadline, around it, or after the firing); a quarter in the 2 ms just
        // before their deadline.
        let deadlines = (0..<count).map { _ in Int(random.next() % 200_000) }
        let cancelMoments: [Int?] = deadlines.map { deadline in
            switch random.next() % 4 {
            case 0: return Int(random.next() % 250_000)
            case 1: return max(0, deadline - Int(random.next() % 2_000))
            default: return nil
            }
        }
        let state = TimerStressState(count: count, expectedCancels: cancelMoments.count { $0 != nil }, context: context)
        var scheduled = [stallPeriodically(context)]
        let timers = LockedBox<[(any Lifetime)?]>(Array(repeating: nil, count: count))
        for id in 0..<count {
            // Each cancellation is scheduled from the moment its timer is made, so the two offsets share an origin.
            let timer = context.singleTimer(interval: .microseconds(deadlines[id])) { state.handlerRan(id) }
            timers.withLock { $0[id] = timer }
            guard let moment = cancelMoments[id] else { continue }
            scheduled.append(
                at(microseconds: moment) {
                    context.invoke {
                        timers.withLock { $0[id] }?.cancel()
                        state.cancelReturned(id)
                    }
                })
        }
        let settled = state.settled.wait(timeout: .now() + 30) == .success
        #expect(settled, "not every timer fired or was cancelled within 30 s")
        // Lets a firing that was on its way when the last cancellation ran reach the context, then reads the results
        // there.
        #expect(waitForTicks(of: context, count: 2))
        let result = context.invokeSync { state.summary() }
        #expect(result.ranAfterCancel == 0, "\(result.ranAfterCancel) handlers ran after their cancel() returned")
        #expect(result.ranOutsideContext == 0, "handlers ran outside their serial context")
        #expect(result.ranTwice == 0, "\(result.ranTwice) one-shot timers ran more than once")
        let neverCancelled = (0..<count).filter { cancelMoments[$0] == nil }
        let missed = neverCancelled.filter { result.runs[$0] != 1 }
        #expect(missed.isEmpty, "\(missed.count) uncancelled timers did not run exactly once")
        // Not a guarantee, a check that the test exercised the race: with cancellations spread over the deadlines,
        // thousands land before their timer fires.
        #expect(result.cancelledBeforeRunning > 0)
        withExtendedLifetime(timers) {}
        for source in scheduled { source.cancel() }
    }

    @Test(arguments: TimerContext.allCases)
    func periodicTimersNeverTickAfterCancel(on timerContext: TimerContext) {
        let context = timerContext.makeContext()
        let count = Self.periodicCount
        var random = SplitMix64(seed: 0x5065_7269_6F64_6963)
        // Periods of 1 to 5 ms, so that ticks often arrive while a cancellation waits behind a stall. Every tenth
        // timer survives until it has ticked twice, so the test always sees ticks, however late the machine runs
        // them; the others are cancelled at a moment between 10 and 200 ms.
        let periods = (0..<count).map { _ in 1_000 + Int(random.next() % 4_000) }
        let cancelMoments: [Int?] = (0..<count).map { id in
            let moment = 10_000 + Int(random.next() % 190_000)
            return id % 10 == 0 ? nil : moment
        }
        let survivorIDs = (0..<count).filter { cancelMoments[$0] == nil }
        let state = TimerStressState(
            count: count, expectedCancels: count - survivorIDs.count, context: context, survivors: survivorIDs)
        var scheduled = [stallPeriodically(context)]
        var survivors: [(id: Int, timer: any Lifetime)] = []
        for id in 0..<count {
            let timer = context.periodicTimer(interval: .microseconds(periods[id])) { state.handlerRan(id) }
            guard let moment = cancelMoments[id] else {
                survivors.append((id, timer))
                continue
            }
            scheduled.append(
                at(microseconds: moment) {
                    context.invoke {
                        timer.cancel()
                        state.cancelReturned(id)
                    }
                })
        }
        let settled = state.settled.wait(timeout: .now() + 30) == .success
        #expect(settled, "the cancellations did not all run, or the survivors did not tick twice, within 30 s")
        context.invokeSync {
            for (id, timer) in survivors {
                timer.cancel()
                state.cancelReturned(id)
            }
        }
        #expect(waitForTicks(of: context, count: 2))
        let result = context.invokeSync { state.summary() }
        #expect(result.ranAfterCancel == 0, "\(result.ranAfterCancel) ticks ran after their timer's cancel() returned")
        #expect(result.ranOutsideContext == 0, "handlers ran outside their serial context")
        #expect(survivorIDs.allSatisfy { result.runs[$0] >= 2 }, "a surviving periodic timer ticked less than twice")
        for source in scheduled { source.cancel() }
    }

    /// Holds `context` for 2 ms out of every 4 until the returned timer is cancelled, so blocks queue up behind it in
    /// arrival order, even when the machine is slow and firings come late.
    ///
    /// A timed wait on a semaphore nobody signals. It shapes the load and synchronizes nothing: the test's outcome
    /// does not depend on how long it lasts. It blocks rather than spins: four spinning cases at once kept both cores
    /// busy, and Linux's libdispatch then gave the global queue, where default timers fire, no thread for a second.
    private func stallPeriodically(_ context: Exec) -> any DispatchSourceTimer {
        DispatchSource.repeatingTimer(interval: .milliseconds(4), queue: Self.scheduler) {
            context.invoke { _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(2)) }
        }
    }

    /// Runs `block` on ``scheduler`` `microseconds` from now, with no leeway: `asyncAfter` may be late by a tenth of
    /// the delay, which would move a cancellation meant for just before a deadline to well after it.
    ///
    /// - Returns: The Dispatch timer, to keep until it has fired.
    private func at(microseconds: Int, _ block: @escaping @Sendable () -> Void) -> any DispatchSourceTimer {
        DispatchSource.singleTimer(interval: .microseconds(microseconds), queue: Self.scheduler, handler: block)
    }

    /// Where the cancellations and stalls are started: a private queue, not a global one. A global queue gets at
    /// most one thread per core from Linux's libdispatch, and when other tests block those (two here), its blocks
    /// wait until the pool grows, about a second later: every cancellation then came after every firing. A private
    /// serial queue runs on the overcommitting pool, which starts a thread when none is free.
    private static let scheduler = DispatchQueue(label: "TimerStressTests.scheduler")

    /// Waits for `count` ticks of a fresh 1 ms periodic timer on `context`: by then firings that were on their way
    /// when the test's last cancellation ran have reached the context (they travel the same way, earlier).
    private func waitForTicks(of context: Exec, count: Int) -> Bool {
        let ticks = Recorder<Int>()
        let sentinel = context.periodicTimer(interval: .milliseconds(1)) { ticks.record(1) }
        defer { sentinel.cancel() }
        return ticks.wait(for: count)
    }
}

/// What the timers of a stress run did, touched only inside the serial context under test (whose queue orders every
/// access), so it needs no lock; a handler run outside the context would show up as a data race under the Thread
/// Sanitizer, and is counted.
private final class TimerStressState: @unchecked Sendable {
    // Unchecked: every property below is only read or written by blocks running in `context`, a serial queue.
    private let context: Exec
    private var runs: [Int]
    private var isCancelled: [Bool]
    private var ranAfterCancel = 0
    private var ranOutsideContext = 0
    private var cancelledBeforeRunning = 0
    /// Timers that ran, or were cancelled before running: once all are, every cancellation has run and no timer is
    /// short of runs, the test has seen everything it planned.
    private var resolved = 0
    private var cancelsRun = 0
    private let expectedCancels: Int
    /// Per timer, how often it must have run before the test settles (twice for a periodic survivor, else zero).
    private var requiredRuns: [Int]
    /// Timers that have not yet run as often as `requiredRuns` asks.
    private var shortOfRuns: Int
    private var isSettled = false
    let settled = DispatchSemaphore(value: 0)

    struct Summary: Sendable {
        var runs: [Int]
        var ranAfterCancel: Int
        var ranOutsideContext: Int
        var ranTwice: Int
        var cancelledBeforeRunning: Int
    }

    init(count: Int, expectedCancels: Int, context: Exec, survivors: [Int] = []) {
        requiredRuns = Array(repeating: 0, count: count)
        for id in survivors { requiredRuns[id] = 2 }
        shortOfRuns = survivors.count
        runs = Array(repeating: 0, count: count)
        isCancelled = Array(repeating: false, count: count)
        self.expectedCancels = expectedCancels
        self.context = context
    }

    /// A timer's handler; runs in the context.
    func handlerRan(_ id: Int) {
        if !context.isCurrent { ranOutsideContext += 1 }
        if isCancelled[id] { ranAfterCancel += 1 }
        runs[id] += 1
        if runs[id] == 1 && !isCancelled[id] { resolved += 1 }
        if runs[id] == requiredRuns[id] { shortOfRuns -= 1 }
        settleIfDone()
    }

    /// Runs in the context right after `cancel()` returned there.
    func cancelReturned(_ id: Int) {
        if !context.isCurrent { ranOutsideContext += 1 }
        isCancelled[id] = true
        cancelsRun += 1
        if runs[id] == 0 {
            cancelledBeforeRunning += 1
            resolved += 1
        }
        settleIfDone()
    }

    private func settleIfDone() {
        guard !isSettled, cancelsRun == expectedCancels, resolved == runs.count, shortOfRuns == 0 else { return }
        isSettled = true
        settled.signal()
    }

    func summary() -> Summary {
        Summary(
            runs: runs, ranAfterCancel: ranAfterCancel, ranOutsideContext: ranOutsideContext,
            ranTwice: runs.count { $0 > 1 }, cancelledBeforeRunning: cancelledBeforeRunning)
    }
}

/// A user's serial context on a private queue that knows when it is current, so handlers can check where they run.
private struct SerialQueueWithIdentity: ExecutionContext {
    let queue = DispatchQueue(label: "SerialQueueWithIdentity")

    var type: ExecutionType { .serialAsync }
    var isCurrent: Bool { queue.isCurrent }
    func invoke(_ execute: @escaping @Sendable () -> Void) { queue.async(execute: execute) }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { queue.async(execute: execute) }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { queue.sync(execute: execute) }
}

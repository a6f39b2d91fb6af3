// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

/// *Timers and lifetimes*: "The source is armed with the smallest leeway among the timers due in its window, so a timer
/// with a generous leeway never makes one with a tight leeway late" (issue #32), on every kind of context whose timers
/// share a queue's source: the main queue, a global queue, `.direct` (the default-QoS global queue), private serial and
/// concurrent queues, a mutex queue, and `Exec.direct.serialized()`, whose timers are `.direct`'s.
///
/// A timer with a minute of leeway is due first, and a tight one (1 ms of leeway) 150 ms later, inside the first one's
/// window, scheduled in either order. The tight one must fire within its own deadline plus a scheduling allowance of
/// 5 s, far below the minute a source armed with the generous leeway could wait. Generous bounds, no speed claim.
///
/// Where this can fail: Apple platforms, whose kernel defers a timer within its leeway. Linux's libdispatch arms its
/// timers for their deadline and ignores the leeway, so there this test passes whatever leeway the source gets; the
/// engine's choice of leeway is asserted without Dispatch, on every platform, by `TimerScheduleTests` (coalescing, and
/// the random operations that check the source fires by every timer's deadline plus leeway).
@Suite struct LeewaySharingTests {
    static let contexts: [Exec] = [
        .main, .utility, .direct, .asyncQueue(label: "test.leeway.serial"),
        .queue(DispatchQueue(label: "test.leeway.concurrent", attributes: .concurrent), .concurrentAsync),
        .syncQueue(label: "test.leeway.mutex"), .direct.serialized(),
    ]

    // Guarantees: G-timer-leeway-never-delays-tight
    @Test(arguments: contexts, [true, false])
    func aGenerousLeewayNeverMakesATightTimerLate(context: Exec, generousFirst: Bool) {
        let tightDelay: Duration = .milliseconds(200)
        let allowance: Duration = .seconds(5)
        let fired = DispatchSemaphore(value: 0)
        let firedAt = LockedBox<UInt64?>(nil)
        let start = DispatchTime.now().uptimeNanoseconds
        func generous() -> any Lifetime {
            context.singleTimer(interval: .milliseconds(50), leeway: .seconds(60)) {}
        }
        func tight() -> any Lifetime {
            context.singleTimer(interval: tightDelay, leeway: .milliseconds(1)) {
                firedAt.withLock { $0 = DispatchTime.now().uptimeNanoseconds }
                fired.signal()
            }
        }
        let timers = generousFirst ? [generous(), tight()] : [tight(), generous()]
        let firedInTime = waitBlocking(fired, seconds: 10)
        #expect(firedInTime, "the tight timer did not fire within 10 s")
        if let firedAt = firedAt.withLock({ $0 }) {
            let late = Duration.nanoseconds(Int64(firedAt - start)) - tightDelay
            #expect(late < allowance, "the tight timer fired \(late) after its deadline")
        }
        withExtendedLifetime(timers) {}
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// Virtual time starts at 125 ns, not at `DispatchTime(uptimeNanoseconds: 0)`, which Dispatch's arithmetic reads as "now"
/// (the machine's uptime); and `advance(to:)` a past instant still runs what is due.
@Suite struct StartOfVirtualTimeTests {
    // Guarantees: G-virtual-start-125ns
    @Test func dispatchArithmeticOnTheStartingInstantStaysInVirtualTime() {
        let coordinator = TestCoordinator()
        #expect(coordinator.now + .seconds(1) == DispatchTime(uptimeNanoseconds: 125 + 1_000_000_000))
        #expect(coordinator.main.timestamp() + .seconds(5) == DispatchTime(uptimeNanoseconds: 125 + 5_000_000_000))
        #expect(coordinator.clock.now.dispatchTime == coordinator.now)
        #expect(coordinator.elapsed == .zero)
    }

    // Guarantees: G-virtual-advance, G-virtual-start-125ns
    @Test func advancingToAQuarterSecondFromTheStartRunsNothingDueLater() {
        let coordinator = TestCoordinator()
        let ran = Shared(false)
        coordinator.main.invoke(after: .seconds(1)) { ran.value = true }
        coordinator.advance(to: coordinator.now + .milliseconds(250))
        #expect(!ran.value, "a 1 s delay ran after a quarter of a second")
        #expect(coordinator.elapsed == .milliseconds(250))
        coordinator.advance(to: coordinator.now + .milliseconds(750))
        #expect(ran.value)
    }

    // Guarantees: G-virtual-advance
    @Test func advancingToAnInstantThatHasPassedRunsWhatIsDueNow() {
        let coordinator = TestCoordinator()
        coordinator.advance(by: .seconds(5))
        let ran = Shared(false)
        coordinator.global.invokeAsync { ran.value = true }
        coordinator.advance(to: DispatchTime(uptimeNanoseconds: 1_000_000_000))
        #expect(ran.value, "advance(to:) a past instant left work due now pending")
        #expect(coordinator.elapsed == .seconds(5), "time never goes back")
        #expect(coordinator.isIdle)
    }
}

/// Apple Silicon's `DispatchTime` counts ticks of 125/3 ns and rounds to whole ticks; Linux and Intel Macs count
/// nanoseconds. Modelled here (this machine cannot run it): every instant a test reaches in whole microseconds from the
/// coordinator's start survives the round trip through a `DispatchTime`, so `advance(to: coordinator.now)` moves nothing
/// and `coordinator.now + .seconds(1)` is exact there too.
@Suite struct TickRatioTests {
    /// Nanoseconds to Apple Silicon ticks, rounding up as the initializer does, and back.
    private func roundTripOnAppleSilicon(_ nanoseconds: UInt64) -> UInt64 {
        let ticks = (nanoseconds * 3 + 124) / 125
        return ticks * 125 / 3
    }

    // Guarantees: G-virtual-start-125ns
    @Test func theStartAndWholeMicrosecondsFromItRoundTrip() {
        let coordinator = TestCoordinator()
        let start = coordinator.now.uptimeNanoseconds
        #expect(roundTripOnAppleSilicon(start) == start)
        for step: UInt64 in [1_000, 250_000, 1_000_000, 300_000_000, 1_000_000_000, 3_600_000_000_000] {
            #expect(roundTripOnAppleSilicon(start + step) == start + step, "\(step) ns from the start")
        }
        #expect(roundTripOnAppleSilicon(1) != 1, "the model rounds: a start of 1 ns would not survive")
    }

    // Guarantees: G-virtual-start-125ns
    @Test func advancingToNowMovesNothing() {
        let coordinator = TestCoordinator()
        coordinator.advance(by: .milliseconds(250))
        coordinator.advance(to: coordinator.now)
        #expect(coordinator.elapsed == .milliseconds(250))
        #expect(roundTripOnAppleSilicon(coordinator.now.uptimeNanoseconds) == coordinator.now.uptimeNanoseconds)
    }
}

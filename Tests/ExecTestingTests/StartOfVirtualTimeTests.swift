// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// Virtual time starts at 1 ns, not at `DispatchTime(uptimeNanoseconds: 0)`, which Dispatch's arithmetic reads as "now"
/// (the machine's uptime); and `advance(to:)` a past instant still runs what is due.
@Suite struct StartOfVirtualTimeTests {
    @Test func dispatchArithmeticOnTheStartingInstantStaysInVirtualTime() {
        let coordinator = TestCoordinator()
        #expect(coordinator.now + .seconds(1) == DispatchTime(uptimeNanoseconds: 1 + 1_000_000_000))
        #expect(coordinator.main.timestamp() + .seconds(5) == DispatchTime(uptimeNanoseconds: 1 + 5_000_000_000))
        #expect(coordinator.clock.now.dispatchTime == coordinator.now)
        #expect(coordinator.elapsed == .zero)
    }

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

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// On a context whose timers fire at once (`Exec.immediate(clock:)`), a `OnceCompletion`'s timeout wins during `init`:
/// the handler has run with `.timedOut` before `init` returns, and every later outcome is dropped.
@Suite struct OnceCompletionImmediateClockTests {
    // Guarantees: G-once-immediate-clock-timeout
    @Test func theTimeoutWinsBeforeInitReturns() {
        let clock = ImmediateClock()
        let outcomes = Shared<[OnceCompletion<String>.Outcome]>([])
        let completion = OnceCompletion<String>(context: .immediate(clock: clock), timeout: .seconds(1_800)) {
            outcome in outcomes.update { $0.append(outcome) }
        }
        #expect(outcomes.value == [.failure(.timedOut)], "the timeout must have won inside init")
        #expect(completion.isFinished)
        #expect(clock.elapsed == .seconds(1_800))
        #expect(!completion.complete("too late"))
        #expect(!completion.cancel())
        #expect(outcomes.value == [.failure(.timedOut)], "later outcomes must be dropped")
    }
}

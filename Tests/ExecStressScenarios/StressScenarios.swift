// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// Every scenario of the stress suite, by name.
package enum StressScenarios {
    /// All scenarios, in a fixed order.
    package static let all: [StressScenario] =
        PerformScenarios.all + TaskScenarios.all + ActorWaitScenarios.all + CallbackScenarios.all
        + CompletionAndQueueScenarios.all
        + TimerScenarios.all
        + NotificationScenarios.all + CoordinatorScenarios.all + CoordinatorEndingScenarios.all
        + RandomProgramScenarios.all + OracleScenarios.all

    /// The scenario called `name`, or `nil`.
    package static func named(_ name: String) -> StressScenario? {
        all.first { $0.name == name }
    }
}

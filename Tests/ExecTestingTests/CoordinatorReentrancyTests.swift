// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// Issue #28, item 4, in virtual time: a coordinator's contexts answer `isReentrant` as the real ones they imitate do,
/// and each `true` holds: a nested `invokeSync` from inside runs inline.
@Suite struct CoordinatorReentrancyTests {
    static let contexts: [(name: String, make: @Sendable (TestCoordinator) -> Exec, isReentrant: Bool)] = [
        ("direct", { $0.direct }, true),
        ("main", { $0.main }, true),
        ("mainAsync", { $0.mainAsync }, true),
        ("global", { $0.global }, true),
        ("serialQueue", { $0.serialQueue(named: "q") }, true),
        ("conditionalQueue", { $0.serialQueue(named: "c", type: .conditionallyAsync(true)) }, true),
        ("mutexQueue", { $0.serialQueue(named: "m", type: .mutex) }, false),
        ("globalSerialized", { $0.global.serialized() }, true),
        ("directSerialized", { $0.direct.serialized() }, true),
        ("mainAlwaysAsync", { $0.main.alwaysAsync() }, true),
    ]

    @Test(arguments: 0..<contexts.count)
    func isReentrantAnswersWhatTheContextDoes(index: Int) {
        let (name, make, expected) = Self.contexts[index]
        let coordinator = TestCoordinator()
        let context = make(coordinator)
        #expect(context.isReentrant == expected, "\(name)")
        guard expected else { return }
        let nested = context.invokeSync { context.invokeSync { 42 } }
        #expect(nested == 42, "\(name)")
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

@Test func smoke() {
    let coordinator = TestCoordinator()
    let log = LockedBox<[String]>([])
    coordinator.main.invoke { log.withLock { $0.append("a") } }
    #expect(log.withLock { $0 }.isEmpty)
    coordinator.runUntilIdle()
    #expect(log.withLock { $0 } == ["a"])
}

@Test func sleepSmoke() async {
    let coordinator = TestCoordinator()
    let flag = LockedBox(false)
    let task = Task(executorPreference: coordinator.taskExecutor) {
        try await coordinator.clock.sleep(for: .seconds(30))
        flag.withLock { $0 = true }
    }
    coordinator.runUntilIdle()
    print(coordinator.pendingWork)
    coordinator.advance(by: .seconds(29))
    #expect(flag.withLock { $0 } == false)
    coordinator.advance(by: .seconds(1))
    #expect(flag.withLock { $0 } == true)
    print(coordinator.pendingWork)
    _ = await task.result
}

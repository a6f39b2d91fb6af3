// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTesting

// Helpers that schedule work on a coordinator and report whether the coordinator named the line that scheduled it,
// called by the call-site shape tests inside `#expect`, `#require` and XCTest assertions (issue #38: the most ordinary
// of those shapes crashed the test process while the call site was captured).

/// Schedules a block on a new serial queue, reads the line the coordinator names for it, and runs it: true when the
/// named line is the scheduling line.
func schedulesAndNamesItsLine(_ coordinator: TestCoordinator) -> Bool {
    let queue = coordinator.serialQueue(named: "q")
    let line = #line + 1
    queue.invokeAsync {}
    let named = coordinator.pendingWork.first?.callSite == PendingWork.CallSite(path: #filePath, line: line)
    coordinator.runUntilIdle()
    return named
}

/// Arms a timer and a delayed block on `main`, reads the lines the coordinator names for them, and runs both.
func armsATimerAndNamesItsLines(_ coordinator: TestCoordinator) -> Bool {
    let timerLine = #line + 1
    let timer = coordinator.main.singleTimer(interval: .seconds(1)) {}
    let delayedLine = #line + 1
    coordinator.main.invoke(after: .seconds(2)) {}
    let named = coordinator.pendingWork.map(\.callSite?.line) == [timerLine, delayedLine]
    coordinator.advance(by: .seconds(2))
    withExtendedLifetime(timer) {}
    return named && coordinator.isIdle
}

/// ``schedulesAndNamesItsLine(_:)`` for any payload type: a generic function's frame.
func schedulesGenerically<Payload: Sendable>(_ coordinator: TestCoordinator, carrying payload: Payload) -> Bool {
    let queue = coordinator.serialQueue(named: "q")
    let line = #line + 1
    queue.invokeAsync { _ = payload }
    let named = coordinator.pendingWork.first?.callSite?.line == line
    coordinator.runUntilIdle()
    return named
}

/// An async helper: after a suspension (so that it runs in a resume part of an async function), schedules a block and
/// starts a task, reads the lines named for both, and runs them.
func schedulesFromAnAsyncHelper(_ coordinator: TestCoordinator) async -> Bool {
    await Task.yield()
    let queue = coordinator.serialQueue(named: "q")
    let blockLine = #line + 1
    queue.invokeAsync {}
    let taskLine = #line + 1
    let task = coordinator.task { 1 }
    let named = coordinator.pendingWork.map(\.callSite?.line) == [blockLine, taskLine]
    coordinator.runUntilIdle()
    let value = await task.value
    return named && value == 1
}

/// The lines of ``schedulesOnTwoQueues(_:log:)`` that schedule its two blocks.
let twoQueuesLines: [Int?] = [twoQueuesFirstLine, twoQueuesFirstLine + 1]
private let twoQueuesFirstLine = #line + 5

/// Schedules a block on "a" and then one on "b", each appending its queue's name to `log`; returns the two lines
/// that scheduled them, as the coordinator names them.
func schedulesOnTwoQueues(_ coordinator: TestCoordinator, log: LockedBox<[String]>) -> [Int?] {
    coordinator.serialQueue(named: "a").invoke { log.withLock { $0.append("a") } }
    coordinator.serialQueue(named: "b").invoke { log.withLock { $0.append("b") } }
    return coordinator.pendingWork.map(\.callSite?.line)
}

/// A helper whose methods schedule: an instance method and a static method.
struct SchedulingHelper {
    let coordinator: TestCoordinator

    func schedules() -> Bool { schedulesAndNamesItsLine(coordinator) }

    static func schedules(on coordinator: TestCoordinator) -> Bool { schedulesAndNamesItsLine(coordinator) }
}

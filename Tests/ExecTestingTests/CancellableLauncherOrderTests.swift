// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTestSupport
import ExecTesting
import Testing

/// `CancellableLauncher.cancelAll()` cancels in start order (issue #40, item 6). Swift seeds hashing per process, so an
/// order that came from a dictionary would differ from one process to the next: the check runs in child processes too.
@Suite struct CancellableLauncherOrderTests {
    /// Starts `count` tasks through a launcher on a coordinator, each sleeping with a cancellation handler that logs
    /// its index, cancels them all, and returns the order the handlers ran in.
    static func cancellationOrder(count: Int) -> [Int] {
        let coordinator = TestCoordinator()
        let launcher = CancellableLauncher(coordinator.global)
        let order = Shared<[Int]>([])
        for index in 0..<count {
            launcher.task {
                await withTaskCancellationHandler {
                    try? await coordinator.clock.sleep(for: .seconds(60))
                } onCancel: {
                    order.update { $0.append(index) }
                }
            }
        }
        coordinator.advance(by: .seconds(1))  // every task is in its sleep
        launcher.cancelAll()
        coordinator.run { Issue.record(Comment(rawValue: $0)) }
        return order.value
    }

    // Guarantees: G-task-cancellable-order
    @Test func cancelAllCancelsInStartOrder() {
        #expect(Self.cancellationOrder(count: 12) == Array(0..<12))
    }

    #if os(macOS) || os(Linux) || os(Windows)
    /// Three processes, three hash seeds: one order, the start order. (Before the fix, 12 tasks came out in start order
    /// once in 12! processes.)
    // Guarantees: G-task-cancellable-order
    @Test func cancelAllCancelsInStartOrderInEveryProcess() async {
        for _ in 0..<3 {
            await #expect(processExitsWith: .success) {
                let order = CancellableLauncherOrderTests.cancellationOrder(count: 12)
                precondition(order == Array(0..<12), "cancelled in the order \(order)")
            }
        }
    }
    #endif
}

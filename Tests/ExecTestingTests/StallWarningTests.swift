// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

// Exit tests (and `Process`) exist on macOS, Linux and Windows only.
#if os(macOS) || os(Linux) || os(Windows)

/// Issue #28, item 7: a test that awaits an actor on a simulated queue from its own code waits forever, since nothing
/// runs the coordinator; after a few seconds ExecTesting says so, once, naming the queue and the fix. Each case runs in
/// a process of its own, for 4 s of real time, and reads what it wrote to standard error.
@Suite struct StallWarningTests {
    // Guarantees: G-virtual-stall-warning
    @Test func awaitingAnActorOnASimulatedQueueFromTheTestItselfIsReported() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let coordinator = TestCoordinator()
            let store = StallStore(context: coordinator.serialQueue(named: "store"))
            Task { await store.save() }  // from the test's own code: the job waits for a run that never comes
            try? await Task.sleep(for: .seconds(4))
            withExtendedLifetime(coordinator) {}
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("has waited 3 s on the simulated queue \"store\" of a TestCoordinator"), "\(text)")
        #expect(text.contains("start the awaiting code with coordinator.task { } and advance, or call run()"))
        #expect(text.components(separatedBy: "ExecTesting: a task or actor job").count == 2, "said once")
    }

    // Guarantees: G-virtual-stall-warning
    @Test func aCoordinatorThatIsDrivenIsNotReported() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let coordinator = TestCoordinator()
            let store = StallStore(context: coordinator.serialQueue(named: "store"))
            coordinator.task { await store.save() }
            coordinator.runUntilIdle()
            try? await Task.sleep(for: .seconds(4))
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!text.contains("ExecTesting: a task or actor job"), "\(text)")
    }
}

/// An actor on a simulated queue.
private actor StallStore {
    let context: Exec
    nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedSerialExecutor }

    init(context: Exec) { self.context = context }

    func save() {}
}
#endif

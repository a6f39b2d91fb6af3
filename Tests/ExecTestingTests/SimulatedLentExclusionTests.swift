// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTesting
import Foundation
import Testing

/// A simulated queue is "inside" by the same rule and the same record as a real serial context: a block that
/// coordinator work waits for in an ExecKit `invokeSync` on a real queue is inside the simulated queues that work is
/// in, on whichever thread it runs (the waiting caller lends its exclusion).
@Suite struct SimulatedLentExclusionTests {
    // Guarantees: G-virtual-inside-lent
    @Test func aBlockRunOnAnotherThreadForWaitingCoordinatorWorkIsInsideItsSimulatedQueue() {
        let coordinator = TestCoordinator()
        let database = coordinator.serialQueue(named: "database")
        let seen = Shared<[String]>([])
        // A real queue kept busy, so that the wait below (a workloop's, `dispatch_async_and_wait`, which Linux reaches
        // only through ExecKit's package API) runs the block on the queue's own thread. (On Linux a `sync`, even onto
        // the main queue, runs the block on the waiting thread.)
        let busy = DispatchQueue(label: "busy")
        let busyStarted = DispatchSemaphore(value: 0)
        let releaseBusy = DispatchSemaphore(value: 0)
        busy.async {
            busyStarted.signal()
            releaseBusy.wait()
        }
        busyStarted.wait()
        database.invoke {
            let waiter = pthread_self()
            // Long enough for the wait below to queue its block behind the busy one on a loaded machine.
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(500)) { releaseBusy.signal() }
            SerialQueueEntry(busy).sync(waitingWith: .asyncAndWait) {
                seen.update { $0.append("another thread \(pthread_equal(pthread_self(), waiter) == 0)") }
                seen.update { $0.append("inside \(database.isCurrent), in \(coordinator.currentQueueName ?? "-")") }
                // Inside, so a serial-async queue's invokeSync runs inline here (a thread other than the
                // coordinator's may not drive it, and this needs no driving).
                database.invokeSync { seen.update { $0.append("nested inline") } }
            }
            seen.update { $0.append("back, inside \(database.isCurrent)") }
        }
        coordinator.runUntilIdle()
        #expect(
            seen.value == [
                "another thread true", "inside true, in database", "nested inline", "back, inside true",
            ])
    }

    // Guarantees: G-virtual-inside-lent
    @Test func aThreadThatNoCoordinatorWorkWaitsForIsNotInside() {
        let coordinator = TestCoordinator()
        let database = coordinator.serialQueue(named: "database")
        let seen = Shared<[String]>([])
        database.invoke {
            // Queued, not waited for: the main thread runs it for no caller.
            let done = DispatchSemaphore(value: 0)
            Exec.main.invokeAsync {
                seen.update { $0.append("inside \(database.isCurrent), in \(coordinator.currentQueueName ?? "-")") }
                done.signal()
            }
            done.wait()
        }
        coordinator.runUntilIdle()
        #expect(seen.value == ["inside false, in -"])
    }
}

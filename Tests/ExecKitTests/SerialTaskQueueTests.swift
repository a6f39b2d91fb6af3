// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

/// `SerialTaskQueue` on real contexts (the virtual-time tests are in ExecTestingTests), and its deadlock check.
@Suite struct SerialTaskQueueRealContextTests {
    @Test func callsReadAsUsersWriteThem() async throws {
        let queue = SerialTaskQueue()
        let number = await queue.enqueue { 42 }.value  // cannot throw: no `try`
        #expect(number == 42)
        let text = try await queue.enqueue { () async throws -> String in "thrown or not" }.value
        #expect(text == "thrown or not")
        #expect(await queue.perform { 7 } == 7)
    }

    // Guarantees: G-stq-one-at-a-time
    @Test(arguments: [Exec.utility, .asyncQueue(), .direct])
    func operationsThatSuspendNeverOverlapAndRunInOrder(context: Exec) async {
        let queue = SerialTaskQueue(context: context)
        let ran = LockedBox<[Int]>([])
        let overlaps = LockedBox((inside: 0, overlapped: 0))
        var last: Task<Void, Never>?
        for index in 0..<500 {
            last = queue.enqueue {
                overlaps.withLock { state in
                    if state.inside > 0 { state.overlapped += 1 }
                    state.inside += 1
                }
                await Task.yield()
                ran.withLock { $0.append(index) }
                overlaps.withLock { $0.inside -= 1 }
            }
        }
        await last?.value
        #expect(ran.withLock { $0 } == Array(0..<500))
        #expect(overlaps.withLock { $0.overlapped } == 0)
    }

    @Test func aTaskStartedInsideAnOperationMayAwaitTheQueue() async {
        // Not a deadlock: the inner task is not the operation, so it waits for the operation to finish.
        let queue = SerialTaskQueue()
        let inner = LockedBox<Task<Int, Never>?>(nil)
        await queue.perform {
            inner.withLock { $0 = Task { await queue.perform { 5 } } }
        }
        #expect(await inner.withLock { $0 }?.value == 5)
    }
}

// Exit tests exist on macOS, Linux and Windows only.
#if os(macOS) || os(Linux) || os(Windows)
@Suite struct SerialTaskQueueMisuseTests {
    // Guarantees: G-stq-perform-inside-stops
    @Test func performInsideAnOperationOfTheSameQueueStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let queue = SerialTaskQueue()
            await queue.perform {
                await queue.perform {}
            }
        }
        #expect(
            result.standardErrorText.contains("SerialTaskQueue.perform was awaited inside an operation of the same"))
    }
}
#endif

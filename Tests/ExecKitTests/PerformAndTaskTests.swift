// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Testing

@Suite struct PerformAndTaskTests {
    // Guarantees: G-perform-returns
    @Test func performReturnsTheValueFromInsideTheContext() async {
        let context = Exec.asyncQueue()
        #expect(await context.perform { context.isCurrent })
        let lock = Exec.syncQueue()
        #expect(await lock.perform { lock.isCurrent })
        let custom = MinimalSerialContext()
        #expect(await custom.perform { custom.queue.isCurrent })
    }

    // Guarantees: G-perform-returns
    @Test func performThrowsTheBlocksError() async {
        await #expect(throws: TestError.self) {
            try await Exec.utility.perform { () throws(TestError) -> Int in throw TestError() }
        }
        await #expect(throws: TestError.self) {
            try await MinimalSerialContext().perform { () throws(TestError) -> Int in throw TestError() }
        }
    }

    // Guarantees: G-perform-inline
    @Test func performOnDirectRunsInlineWithoutSuspending() async {
        let caller = ThreadID.current
        #expect(await Exec.direct.perform { ThreadID.current } == caller)
    }

    /// Inline means no hop: the block runs before main-queue work queued earlier, which could only run if the caller
    /// suspended.
    // Guarantees: G-perform-inline
    @Test @MainActor func performOnMainFromTheMainActorRunsInline() async {
        let order = Recorder<String>()
        DispatchQueue.main.async { order.record("queued earlier") }
        let value = await Exec.main.perform {
            order.record("perform")
            return 7
        }
        #expect(value == 7)
        #expect(order.recorded == ["perform"])
        // From elsewhere it hops onto the main queue.
        #expect(await Task.detached { await Exec.main.perform { DispatchQueue.isMainQueueCurrent } }.value)
    }

    /// A cancelled caller still waits for the block it submitted, which runs: documented.
    // Guarantees: G-perform-ignores-cancellation
    @Test func performRunsTheBlockEvenWhenTheCallerIsCancelled() async {
        let gate = DispatchSemaphore(value: 0)
        let ran = Flag()
        let caller = Task {
            await Exec.asyncQueue().perform {
                _ = gate.wait(timeout: .now() + 10)
                ran.set()
            }
        }
        caller.cancel()
        gate.signal()
        await caller.value
        #expect(ran.isSet)
    }

    // Guarantees: G-task-executor-runs-in-context, G-task-launcher-prefers-executor
    @Test func taskRunsInTheContextAndCanBeAwaited() async throws {
        let context = Exec.asyncQueue()
        let places = try await context.task {
            var places = [context.isCurrent]
            try await Task.sleep(for: .milliseconds(1))
            places.append(context.isCurrent)
            return places
        }.value
        #expect(places == [true, true])
        #expect(await MinimalSerialContext().task(priority: .high) { 5 }.value == 5)
    }

    /// `task` comes in Task.init's two forms: an operation that cannot throw gives a `Task<Success, Never>` whose value
    /// is read without `try`; one that throws keeps `any Error`. Written the way users write calls.
    @Test func aNonThrowingTaskIsReadWithoutTryAndAThrowingOneNeedsIt() async throws {
        let task = Exec.asyncQueue().task { 42 }
        let value = await task.value
        #expect(value == 42)
        let neverFails: Task<Int, Never> = Exec.utility.task(priority: .low) { 7 }
        #expect(await neverFails.value == 7)

        let launcher: any TaskLauncher = Exec.asyncQueue()
        #expect(await launcher.task { "launched" }.value == "launched")
        let throwing = launcher.task { () async throws -> Int in throw CancellationError() }
        await #expect(throws: CancellationError.self) { try await throwing.value }
        let mayThrow: Task<Int, any Error> = Exec.direct.task {
            try await Task.sleep(for: .milliseconds(1)); return 3
        }
        #expect(try await mayThrow.value == 3)
    }

    /// A launcher written before the non-throwing form existed implements only the throwing one; the default gives it
    /// the other, running the operation through the launcher and passing cancellation on.
    // Guarantees: G-task-launcher-nonthrowing-default
    @Test func aLauncherWithOnlyTheThrowingFormGetsTheNonThrowingOne() async {
        let launcher = CountingLauncher()
        let value = await launcher.task { 9 }.value
        #expect(value == 9)
        #expect(launcher.launches.withLock { $0 } == 1)

        let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
        let sleeper = launcher.task { () async -> Bool in
            startedContinuation.yield()
            return (try? await Task.sleep(for: .seconds(3_600))) == nil
        }
        for await _ in started { break }
        sleeper.cancel()
        #expect(await sleeper.value, "cancelling the returned task cancels the launcher's task")
    }

    @Test func aTaskFromALauncherCanBeCancelled() async {
        let launcher: any TaskLauncher = Exec.utility
        let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
        let task = launcher.task {
            startedContinuation.yield()
            try await Task.sleep(for: .seconds(3_600))
        }
        for await _ in started { break }  // not a semaphore: blocking a cooperative thread could starve the task
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}

/// A launcher that implements only the throwing `task`, and counts its launches.
private struct CountingLauncher: TaskLauncher {
    let launches = LockedBox(0)

    func task<Success: Sendable>(
        priority: TaskPriority?,
        _ operation: sending nonisolated(nonsending) @escaping () async throws -> Success
    ) -> Task<Success, any Error> {
        launches.withLock { $0 += 1 }
        return Task(priority: priority) { try await operation() }
    }
}

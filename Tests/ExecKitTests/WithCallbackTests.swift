// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecKit
import Testing

/// A callback API as users write them: it completes later, in the caller's context.
private func load(_ id: Int, context: Exec = .main, completion: @escaping @Sendable (Result<String, TestError>) -> Void)
{
    Exec.utility.invoke { context.invoke(completion, with: id < 0 ? .failure(TestError()) : .success("item \(id)")) }
}

@Suite struct WithCallbackTests {
    @Test func itReturnsWhatTheCallbackDelivers() async throws {
        let value = try await withCallback { context, completion in load(1, context: context, completion: completion) }
        #expect(try value.get() == "item 1")
        let failed = try await withCallback { context, completion in load(-1, context: context, completion: completion)
        }
        #expect(throws: TestError.self) { try failed.get() }
    }

    @Test func aCallbackCalledBeforeStartReturnsStillResumes() async throws {
        let value = try await withCallback { _, completion in completion(42) }
        #expect(value == 42)
    }

    // Guarantees: G-withcallback-once
    @Test func aSecondCallIsIgnored() async throws {
        let value = try await withCallback { _, completion in
            completion(1)
            completion(2)
            DispatchQueue.global().async { completion(3) }
        }
        #expect(value == 1)
    }

    // Guarantees: G-withcallback-cancel, G-withcallback-once
    @Test func cancellingTheCallerThrowsAtOnceAndDropsTheLateCompletion() async {
        let completionHolder = LockedBox<(@Sendable (Int) -> Void)?>(nil)
        // Waited for asynchronously: blocking a thread of the small cooperative pool could keep the task from starting.
        let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
        let caller = Task {
            try await withCallback { _, completion in
                completionHolder.withLock { $0 = completion }  // the API keeps it and calls back much later
                startedContinuation.yield()
            }
        }
        for await _ in started { break }
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        completionHolder.withLock { $0 }?(5)  // late: must be dropped without a crash (no double resume)
    }

    // Guarantees: G-withcallback-cancel
    @Test func anAlreadyCancelledCallerThrowsWithoutWaiting() async {
        let caller = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await withCallback { (_, _: @escaping @Sendable (Int) -> Void) in }  // never calls back
        }
        await #expect(throws: CancellationError.self) { try await caller.value }
    }

    /// Completions from another thread, often arriving while the caller is still suspending: each caller gets its own
    /// value. Under the Thread Sanitizer this also meets the Swift runtime's continuation hand-off, which `.ci/run`
    /// suppresses as a known false positive (`.ci/tsan-suppressions.txt`).
    @Test func quickCompletionsFromAnotherThreadEachResumeTheirCaller() async throws {
        for index in 0..<2_000 {
            let value = try await withCallback { _, completion in DispatchQueue.global().async { completion(index) } }
            #expect(value == index)
        }
    }
}

/// `withCallback(timeout:)` in real time, and the typed-throws wrapper its documentation shows (issue #18).
@Suite struct WithCallbackTimeoutTests {
    // Guarantees: G-withcallback-timeout
    @Test func aCallbackAPIThatNeverCallsBackTimesOut() async {
        let kept = LockedBox<[@Sendable (Int) -> Void]>([])
        let started = DispatchTime.now()
        await #expect(throws: CompletionFailure.timedOut) {
            try await withCallback(timeout: .milliseconds(50)) { _, completion in
                kept.withLock { $0.append(completion) }  // kept, never called
            }
        }
        #expect(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds >= 50_000_000)
        kept.withLock { $0.first?(1) }  // a completion after the timeout is dropped, not a second resume
    }

    @Test func aCallbackBeforeTheTimeoutReturnsItsValue() async throws {
        let value = try await withCallback(timeout: .seconds(60)) { context, completion in
            load(7, context: context, completion: completion)
        }
        #expect(try value.get() == "item 7")
    }

    @Test func aTypedThrowsWrapperConvertsInItsOwnCatch() async {
        await #expect(throws: FetchError.notFound) { try await fetch(-1) }
        #expect((try? await fetch(3)) == "item 3")
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await fetch(3)
        }
        await #expect(throws: FetchError.cancelled) { try await cancelled.value }
    }
}

/// The error type of the typed-throws wrapper below.
private enum FetchError: Error, Equatable {
    case notFound, cancelled
}

/// The pattern `withCallback`'s documentation gives for a `throws(FetchError)` wrapper.
private func fetch(_ id: Int) async throws(FetchError) -> String {
    let result: Result<String, TestError>
    do {
        result = try await withCallback { context, completion in load(id, context: context, completion: completion) }
    } catch {
        throw .cancelled
    }
    switch result {
    case .success(let value): return value
    case .failure: throw .notFound
    }
}

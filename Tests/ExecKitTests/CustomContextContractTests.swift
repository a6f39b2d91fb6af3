// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

/// What *Writing your own context* promises about the defaults a context of the user's gets (issue #32, untested
/// promises 10 and 13).
@Suite struct CustomContextContractTests {
    /// "If `invokeAndWait` returns before running the block, the program stops with a message": a broken context must
    /// not make `invokeSync` return a value it never computed.
    #if os(macOS) || os(Linux) || os(Windows)
    // Guarantees: G-custom-invokesync-early-stops
    @Test func invokeSyncStopsWhenInvokeAndWaitReturnsBeforeRunningTheBlock() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let value = Exec.custom(ReturnsEarlyContext()).invokeSync { 42 }
            print("invokeSync returned \(value)")
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("invokeAndWait returned before running its block"), "child output:\n\(message)")
    }
    #endif

    /// "`taskExecutor` is a new `TaskExecutor` on every access, which runs jobs through `invokeAsync` and keeps the
    /// context alive": a task preferring it can run after every other reference to the context is gone.
    // Guarantees: G-custom-task-executor-default
    @Test func theDefaultTaskExecutorKeepsItsContextAlive() {
        weak var weakContext: ReleasableContext?
        var executor: (any TaskExecutor)?
        do {
            let context = ReleasableContext()
            weakContext = context
            executor = context.taskExecutor
        }
        #expect(weakContext != nil, "the executor no longer keeps its context")
        executor = nil
        #expect(becomesNil { weakContext }, "the context outlives its last executor")
        withExtendedLifetime(executor) {}
    }
}

/// A broken context: `invokeAndWait` returns without running the block.
private struct ReturnsEarlyContext: ExecutionContext {
    var type: ExecutionType { .mutex }
    func invoke(_ execute: @escaping @Sendable () -> Void) {}
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) {}
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) {}
}

/// A context of the user's, as a class, so that a test can watch it go.
private final class ReleasableContext: ExecutionContext {
    var type: ExecutionType { .concurrentAsync }
    func invoke(_ execute: @escaping @Sendable () -> Void) { DispatchQueue.global().async(execute: execute) }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { DispatchQueue.global().async(execute: execute) }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { DispatchQueue.global().sync(execute: execute) }
}

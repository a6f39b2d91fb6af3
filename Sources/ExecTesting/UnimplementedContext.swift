// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit

/// A context that stops the program, with a message naming the test's file and line, as soon as anything schedules
/// work on it; see ``ExecKit/Exec/unimplemented(_:fileID:line:)``.
final class UnimplementedContext: ExecutionContext {
    private let name: String
    private let fileID: StaticString
    private let line: UInt

    init(name: String, fileID: StaticString, line: UInt) {
        self.name = name
        self.fileID = fileID
        self.line = line
    }

    /// The weakest promise, ``ExecutionType/concurrentAsync``: asking is not scheduling, so it does not fail.
    var type: ExecutionType { .concurrentAsync }

    func invoke(_ execute: @escaping @Sendable () -> Void) { fail("invoke was called") }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { fail("invokeAsync was called") }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { fail("invokeAndWait was called") }
    func invokeSync<Return>(_ execute: () throws -> Return) rethrows -> Return { fail("invokeSync was called") }

    func singleTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void) -> any Lifetime {
        fail("singleTimer was called")
    }

    func periodicTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void)
        -> any Lifetime
    {
        fail("periodicTimer was called")
    }

    var taskExecutor: any TaskExecutor { UnimplementedTaskExecutor(context: self) }

    func task<Success: Sendable>(
        priority: TaskPriority?,
        _ operation: sending nonisolated(nonsending) @escaping () async throws -> Success
    ) -> Task<Success, any Error> {
        fail("task was called")
    }

    func task<Success: Sendable>(
        priority: TaskPriority?,
        _ operation: sending nonisolated(nonsending) @escaping () async -> Success
    ) -> Task<Success, Never> {
        fail("task was called")
    }

    /// Stops the program: `what` happened on this context, which the test said must never happen.
    func fail(_ what: String) -> Never {
        fatalError(
            "ExecTesting: \(what) on Exec.unimplemented(\"\(name)\"), made at \(fileID):\(line). The test "
                + "says this code path never schedules work in that context.")
    }
}

/// The task executor of an ``UnimplementedContext``: enqueueing a job stops the program with the context's message.
final class UnimplementedTaskExecutor: TaskExecutor {
    private let context: UnimplementedContext

    init(context: UnimplementedContext) { self.context = context }

    func enqueue(_ job: consuming ExecutorJob) { context.fail("a task job was enqueued on the taskExecutor") }
}

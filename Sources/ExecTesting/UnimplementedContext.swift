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

    func invoke(_ execute: @escaping @Sendable () -> Void) { fail("invoke") }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { fail("invokeAsync") }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { fail("invokeAndWait") }
    func invokeSync<Return>(_ execute: () throws -> Return) rethrows -> Return { fail("invokeSync") }

    func singleTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void) -> any Lifetime {
        fail("singleTimer")
    }

    func periodicTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void)
        -> any Lifetime
    {
        fail("periodicTimer")
    }

    var taskExecutor: any TaskExecutor { UnimplementedTaskExecutor(context: self) }

    func task<Success: Sendable>(
        priority: TaskPriority?,
        _ operation: sending @escaping () async throws -> Success
    ) -> Task<Success, any Error> {
        fail("task")
    }

    func fail(_ member: String) -> Never {
        fatalError(
            "ExecTesting: \(member) was called on Exec.unimplemented(\"\(name)\"), made at \(fileID):\(line). The test "
                + "says this code path never schedules work in that context.")
    }
}

/// The task executor of an ``UnimplementedContext``: enqueueing a job stops the program with the context's message.
final class UnimplementedTaskExecutor: TaskExecutor {
    private let context: UnimplementedContext

    init(context: UnimplementedContext) { self.context = context }

    func enqueue(_ job: consuming ExecutorJob) { context.fail("a task job enqueued on taskExecutor of") }
}

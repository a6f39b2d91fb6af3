// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

/// The seeds' `Uploader`: a `nonisolated` entry point starts a task per file, whose first step calls the actor, which
/// runs on the same serial context as the tasks.
private actor Uploader {
    private let context: Exec
    private var uploaded: [Int] = []

    nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedSerialExecutor }

    init(context: Exec) { self.context = context }

    nonisolated func upload(file: Int) -> Task<Void, Never> {
        context.task { await self.store(file) }
    }

    private func store(_ file: Int) { uploaded.append(file) }

    var files: [Int] { uploaded }
}

/// Tasks started on a serial context from one thread begin in the order they were started (issue #18).
@Suite struct OrderedTaskStartTests {
    // Guarantees: G-task-ordered-start
    @Test(arguments: [Exec.asyncQueue(), .custom(UserConcurrentForOrdering()).serialized()])
    func tasksStartedFromOneThreadBeginInOrderEvenThroughAnActorOnTheSameContext(context: Exec) async {
        for round in 0..<5 {
            let uploader = Uploader(context: context)
            let tasks = (0..<100).map { uploader.upload(file: $0) }
            for task in tasks { await task.value }
            #expect(await uploader.files == Array(0..<100), "round \(round)")
        }
    }
}

/// A concurrent context of the user's, made serial by `serialized()` in the test.
private struct UserConcurrentForOrdering: ExecutionContext {
    var type: ExecutionType { .concurrentAsync }
    func invoke(_ execute: @escaping @Sendable () -> Void) { DispatchQueue.global().async(execute: execute) }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { DispatchQueue.global().async(execute: execute) }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { DispatchQueue.global().sync(execute: execute) }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Exit tests exist on macOS, Linux and Windows only: the test targets also build for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux) || os(Windows)

/// A launcher that implements only the throwing `task(priority:_:)` and throws by itself, without running the
/// operation (it checks cancellation first, say): its non-throwing form, ExecKit's default, has no value to return, so
/// it stops the program with a message that says what to implement.
@Suite struct LauncherThrowingFormExitTests {
    // Guarantees: G-task-launcher-throwing-stops
    @Test func theNonThrowingDefaultStopsWhenTheThrowingFormThrowsByItself() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            // Bounded: a default that neither stopped nor returned would otherwise hang the test; this exit is a
            // success, which the expectation rejects.
            DispatchQueue.global().asyncAfter(deadline: .now() + 30) { exit(0) }
            let task = SelfThrowingLauncher().task { 7 }
            _ = await task.value  // reached only if the default returned something
        }
        #expect(result.standardErrorText.contains("Implement the non-throwing task(priority:_:) requirement"))
        #expect(result.standardErrorText.contains("SelfThrowingLauncher"))
    }
}

/// Implements only the throwing form, and throws from it without running the operation.
private struct SelfThrowingLauncher: TaskLauncher {
    func task<Success: Sendable>(
        priority: TaskPriority?,
        _ operation: sending nonisolated(nonsending) @escaping () async throws -> Success
    ) -> Task<Success, any Error> {
        Task(priority: priority) { () async throws -> Success in throw CancellationError() }
    }
}
#endif

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// A context whose work runs only when its caller drives it, never on a thread of its own: ExecTesting's simulated
/// contexts, whose work runs inside the test's `runUntilIdle()` and `advance` calls.
///
/// ExecKit's wrappers consult it where they would otherwise block the calling thread until the wrapped context runs
/// something: on such a context, that wait could never end, so they run the work on the caller's thread instead, in
/// the context, in virtual time.
package protocol CallerDrivenContext: ExecutionContext {
    /// Runs `body` now, on the calling thread, in this context alone, as the context's own thread would: outside
    /// whatever contexts the caller is in (which count as held by a waiting caller meanwhile).
    func runIsolated(_ body: () -> Void)

    /// Queues `execute` as ``ExecutionContext/invokeAsync(_:)`` does, but due now even where each hop takes virtual
    /// time: for a hop ExecKit makes on the caller's behalf inside work that is already running (a timer firing
    /// carried into a derived context), which must not move that work off its time.
    func invokeAsyncWithoutHopLatency(_ execute: @escaping @Sendable () -> Void)
}

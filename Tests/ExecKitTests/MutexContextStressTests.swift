// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

/// The mutex contexts under contention: 4 threads each make up to 250,000 increments (see
/// ``incrementsPerThread(_:)``) of a counter that has no lock of its own, through one context. Only the context's
/// mutual exclusion keeps the total exact, and the counter notices two blocks inside at once. Under the Thread
/// Sanitizer a missing lock is also reported as a data race.
// Guarantees: G-thread-safety-any-thread
@Suite struct MutexContextStressTests {
    /// How one increment gets into the context.
    enum Route: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case syncQueueInvokeSync
        case syncQueueInvoke
        case serializedDirectInvoke
        case serializedDirectInvokeSync
        /// `.custom(immediate).serialized()`: a `MutexContext` that wraps the user's immediate context.
        case serializedCustomImmediateInvoke

        var testDescription: String { rawValue }

        func makeContext() -> Exec {
            switch self {
            case .syncQueueInvokeSync, .syncQueueInvoke: return .syncQueue()
            case .serializedDirectInvoke, .serializedDirectInvokeSync: return .direct.serialized()
            case .serializedCustomImmediateInvoke: return .custom(CountingImmediateContext()).serialized()
            }
        }

        var usesInvokeSync: Bool { self == .syncQueueInvokeSync || self == .serializedDirectInvokeSync }
    }

    static let threads = 4
    /// 250,000 per thread, except through `syncQueue()`: a contended `DispatchQueue.sync` hands the queue from thread
    /// to thread through the kernel, and 4 × 250,000 of them took 6.5 to 8 s per route on this shared 2-core machine
    /// (1.7 s when it was idle), too close to the 10 s budget of a test, so those routes make 125,000 per thread.
    /// Under the Thread Sanitizer every route makes 25,000 per thread (about 1.5 s for a `syncQueue()` route).
    func incrementsPerThread(_ route: Route) -> Int {
        if isThreadSanitizerActive { return 25_000 }
        switch route {
        case .syncQueueInvokeSync, .syncQueueInvoke: return 125_000
        case .serializedDirectInvoke, .serializedDirectInvokeSync, .serializedCustomImmediateInvoke: return 250_000
        }
    }

    // Guarantees: G-mutexcontext-runs-before-return, G-serialized-makes-serial
    @Test(arguments: Route.allCases)
    func contendedIncrementsAreExact(route: Route) {
        let context = route.makeContext()
        #expect(context.type == .mutex)
        let counter = UnguardedCounter()
        let perThread = incrementsPerThread(route)
        let usesInvokeSync = route.usesInvokeSync
        let finished = runOnThreads(Self.threads) { _ in
            for _ in 0..<perThread {
                if usesInvokeSync {
                    context.invokeSync { counter.increment() }
                } else {
                    context.invoke { counter.increment() }
                }
            }
        }
        #expect(finished, "the threads did not finish: a context deadlocked or starved")
        guard finished else { return }
        // A mutex context has run each block when `invoke` returns, so the threads' end orders every increment
        // before this read.
        #expect(counter.value == Self.threads * perThread)
        #expect(counter.overlapCount == 0, "two blocks ran inside the mutex context at once")
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `OnceCompletion` on its default context, `.direct`, outside any override: `complete(_:)` and `cancel()` run the
/// handler on the calling thread before they return; a timeout runs it on a global queue.
@Suite struct OnceCompletionDirectTests {
    /// Calls `finish` on a thread of its own and reports, from that thread, whether the handler had run there (on that
    /// very thread) by the time `finish` returned.
    private static func handlerRanInline(
        _ finish: @escaping @Sendable (OnceCompletion<Int>) -> Bool
    ) -> (ranInline: Bool, outcomes: [OnceCompletion<Int>.Outcome]) {
        let handlerThreads = LockedBox<[UInt]>([])
        let outcomes = LockedBox<[OnceCompletion<Int>.Outcome]>([])
        let completion = OnceCompletion<Int> { outcome in
            handlerThreads.withLock { $0.append(ThreadID.current) }
            outcomes.withLock { $0.append(outcome) }
        }
        let report = Recorder<Bool>()
        startDetachedThread {
            let won = finish(completion)
            let caller = ThreadID.current
            report.record(won && handlerThreads.withLock { $0 } == [caller])
        }
        let reported = report.wait()
        return (reported && report.recorded == [true], outcomes.withLock { $0 })
    }

    // Guarantees: G-once-direct-inline
    @Test func completeRunsTheHandlerOnTheCallingThreadBeforeReturning() {
        let (ranInline, outcomes) = Self.handlerRanInline { $0.complete(42) }
        #expect(ranInline, "the handler must have run on the completing thread when complete(_:) returned")
        #expect(outcomes == [.success(42)])
    }

    // Guarantees: G-once-direct-inline
    @Test func cancelRunsTheHandlerOnTheCallingThreadBeforeReturning() {
        let (ranInline, outcomes) = Self.handlerRanInline { $0.cancel() }
        #expect(ranInline, "the handler must have run on the cancelling thread when cancel() returned")
        #expect(outcomes == [.failure(.cancelled)])
    }

    #if os(macOS) || os(Linux) || os(Windows)
    /// The timeout's handler runs on a global queue (`.direct`'s timers fire on the default-QoS one), not on the
    /// thread that made the completion. Checked with `dispatchPrecondition`, which stops the process when it fails, so
    /// in a child process.
    // Guarantees: G-once-direct-inline
    @Test func aTimeoutRunsTheHandlerOnAGlobalQueue() async {
        await #expect(processExitsWith: .success) {
            let maker = ThreadID.current
            let handled = DispatchSemaphore(value: 0)
            let completion = OnceCompletion<Int>(timeout: .milliseconds(1)) { outcome in
                guard case .failure(.timedOut) = outcome else { exit(3) }
                dispatchPrecondition(condition: .onQueue(.global(qos: .default)))
                dispatchPrecondition(condition: .notOnQueue(.main))
                if ThreadID.current == maker { exit(4) }
                handled.signal()
            }
            if !waitBlocking(handled, seconds: 10) { exit(2) }
            if completion.complete(1) { exit(5) }
        }
    }
    #endif
}

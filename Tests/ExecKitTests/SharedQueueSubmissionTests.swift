// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

/// The shared contexts hand blocks to libdispatch as a function and a context pointer (`dispatch_async_f`) rather than
/// as a block: each block still runs exactly once, on the right queue, and is released once it has run.
@Suite struct SharedQueueSubmissionTests {
    static let sharedContexts: [Exec] = [.main, .mainAsync, .interactive, .user, .default, .utility, .background]

    @Test(arguments: sharedContexts)
    func invokeRunsOnceAndReleasesTheBlock(context: Exec) {
        weak var weakToken: Token?
        let ran = Recorder<Bool>()
        do {
            let token = Token()
            weakToken = token
            context.invoke { withExtendedLifetime(token) { ran.record(Self.isOnExpectedQueue(context)) } }
        }
        #expect(ran.wait())
        #expect(ran.recorded == [true])
        #expect(becomesNil { weakToken }, "the block, and what it captures, must be released once it has run")
    }

    @Test(arguments: sharedContexts + [.direct])
    func invokeAsyncRunsOnceAndReleasesTheBlock(context: Exec) {
        weak var weakToken: Token?
        let ran = Recorder<Bool>()
        do {
            let token = Token()
            weakToken = token
            context.invokeAsync { withExtendedLifetime(token) { ran.record(Self.isOnExpectedQueue(context)) } }
        }
        #expect(ran.wait())
        #expect(ran.recorded == [true])
        #expect(becomesNil { weakToken })
    }

    /// What the caller wrote before `invoke` is visible in the block, with no lock: submission orders it, as
    /// `DispatchQueue.async` does. Under the Thread Sanitizer (CI's second run) this fails with a reported race if
    /// the sanitizer did not see `dispatch_async_f` as the happens-before edge.
    @Test(arguments: sharedContexts + [.direct])
    func theBlockSeesWhatTheCallerWroteBeforeSubmitting(context: Exec) {
        let box = UnsynchronizedBox()
        let seen = Recorder<Int>()
        box.value = 42
        context.invokeAsync { seen.record(box.value) }
        #expect(seen.wait())
        #expect(seen.recorded == [42])
    }

    // Guarantees: G-serial-fifo-one-at-a-time
    @Test func theMainQueueRunsBlocksInSubmissionOrder() {
        let order = Recorder<Int>()
        for index in 0..<100 { Exec.mainAsync.invoke { order.record(index) } }
        #expect(order.wait(for: 100))
        #expect(order.recorded == Array(0..<100))
    }

    /// The main-queue cases run on the main queue; the others run off it.
    static func isOnExpectedQueue(_ context: Exec) -> Bool {
        switch context {
        case .main, .mainAsync, .mainOrdered: return DispatchQueue.isMainQueueCurrent
        default: return !DispatchQueue.isMainQueueCurrent
        }
    }
}

/// A value with no lock at all: only the ordering that submission provides makes sharing it safe.
private final class UnsynchronizedBox: @unchecked Sendable {
    // Unchecked on purpose: see theBlockSeesWhatTheCallerWroteBeforeSubmitting.
    var value = 0
}

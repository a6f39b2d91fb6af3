// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every `.main` path gives the same answer to "am I inside the main queue?" (issue #40, item 2). Inside
/// `q.invokeSync { }` called from a main-queue block, the parked main-queue caller lends its exclusion: `isCurrent`
/// said so, and `invokeSync` ran inline, while `invoke` and `type` asked only which queue was running and queued the
/// block behind the caller that was waiting for it.
// Guarantees: G-main-one-answer
@Suite struct MainQueueOneAnswerTests {
    /// What each `.main` path did, asked from one place.
    struct Answers: Equatable, Sendable {
        var isCurrent: [Bool]
        var types: [ExecutionType]
        /// For each way of invoking: whether the block had run when the call returned.
        var ranInline: [Bool]
    }

    /// Asks every path, from wherever this is called. (`.mainOrdered` runs inline only with none of its blocks pending,
    /// which other tests running in parallel decide: only its `isCurrent` is asked.)
    static func askEveryMainPath() -> Answers {
        // An `invoke` ran inline when its block ran on this thread before the call returned: a block queued elsewhere
        // can also have run by the time the flag is read (the caller descheduled meanwhile), but on another thread.
        let ways: [(Exec, @Sendable (Exec, InlineProbe) -> Void)] = [
            (.main, { context, probe in context.invoke { probe.ran() } }),
            (.main, { context, probe in context.invoke({ (_: Int) in probe.ran() }, with: 1) }),
            (.queue(.main, .conditionallyAsync(true)), { context, probe in context.invoke { probe.ran() } }),
        ]
        var ranInline = ways.map { context, invoke in
            let probe = InlineProbe()
            invoke(context, probe)
            return probe.ranInline
        }
        // `invokeSync` has run its block when it returns, inline or not (libdispatch may run a `sync` block on the
        // caller's thread either way): what is asked is that it returns at all.
        let waited = LockedBox(false)
        Exec.main.invokeSync { waited.withLock { $0 = true } }
        ranInline.append(waited.withLock { $0 })
        return Answers(
            isCurrent: [Exec.main, .mainAsync, .mainOrdered].map(\.isCurrent),
            types: [Exec.main.type],
            ranInline: ranInline)
    }

    static let inside = Answers(
        isCurrent: [true, true, true], types: [.conditionallyAsync(false)], ranInline: [true, true, true, true])

    @Test func insideASyncCalledFromTheMainQueueEveryPathRunsInline() async {
        let answers = await withCheckedContinuation { continuation in
            DispatchQueue.main.async {
                let queue = Exec.asyncQueue()
                continuation.resume(returning: queue.invokeSync { Self.askEveryMainPath() })
            }
        }
        #expect(answers == Self.inside)
    }

    /// The shape the issue found: the main-queue block queued through ExecKit, recorded as inside the main queue.
    @Test func insideASyncCalledFromAnExecKitMainBlockEveryPathRunsInline() async {
        let answers = await withCheckedContinuation { continuation in
            Exec.mainAsync.invoke {
                continuation.resume(returning: Exec.asyncQueue().invokeSync { Self.askEveryMainPath() })
            }
        }
        #expect(answers == Self.inside)
    }

    @Test func throughTwoSyncsFromTheMainQueueEveryPathRunsInline() async {
        let answers = await withCheckedContinuation { continuation in
            DispatchQueue.main.async {
                let outer = Exec.syncQueue()
                let inner = DispatchQueue(label: "inner")
                continuation.resume(returning: outer.invokeSync { inner.sync { Self.askEveryMainPath() } })
            }
        }
        #expect(answers == Self.inside)
    }

    @Test func onTheMainQueueItselfEveryPathRunsInline() async {
        let answers = await withCheckedContinuation { continuation in
            DispatchQueue.main.async { continuation.resume(returning: Self.askEveryMainPath()) }
        }
        #expect(answers == Self.inside)
    }

    /// Off the main queue, nothing runs inline but `invokeSync`, which waits for the main queue.
    @Test func insideASyncCalledFromElsewhereNoPathRunsInline() async {
        let answers = await withCheckedContinuation { continuation in
            Exec.utility.invoke {
                continuation.resume(returning: Exec.asyncQueue().invokeSync { Self.askEveryMainPath() })
            }
        }
        #expect(answers.isCurrent == [false, false, false])
        #expect(answers.types == [.conditionallyAsync(true)])
        #expect(answers.ranInline == [false, false, false, true])
    }
}

/// Whether a block ran on the thread that made the probe, before the probe was read.
final class InlineProbe: @unchecked Sendable {
    // Unchecked: `caller` is immutable; `ranHere` is locked.
    private let caller = pthread_self()
    private let ranHere = LockedBox(false)

    func ran() {
        if pthread_equal(pthread_self(), caller) != 0 { ranHere.withLock { $0 = true } }
    }

    var ranInline: Bool { ranHere.withLock { $0 } }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Testing

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
        let ways: [(Exec, @Sendable (Exec, Flag) -> Void)] = [
            (.main, { context, ran in context.invoke { ran.set() } }),
            (.main, { context, ran in context.invoke({ (_: Int) in ran.set() }, with: 1) }),
            (.queue(.main, .conditionallyAsync(true)), { context, ran in context.invoke { ran.set() } }),
            (.main, { context, ran in context.invokeSync { ran.set() } }),
        ]
        let ranInline = ways.map { context, invoke in
            let ran = Flag()
            invoke(context, ran)
            return ran.isSet
        }
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

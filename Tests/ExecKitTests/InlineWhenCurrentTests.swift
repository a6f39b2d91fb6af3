// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue #42, item 2: `inlineWhenCurrent()` runs a block at once when the caller is already inside the context, and
/// hops (or waits, for a mutex) as the context does otherwise.
@Suite struct InlineWhenCurrentTests {
    /// The contexts whose `inlineWhenCurrent()` is a new context, by the row of its doc that makes it.
    enum Kind: String, CaseIterable, Sendable {
        case asyncQueue, syncQueue, concurrentQueue, userSerialContext, userMutexContext, userConcurrentContext

        func make() -> Exec {
            switch self {
            case .asyncQueue: return .asyncQueue()
            case .syncQueue: return .syncQueue()
            case .concurrentQueue:
                return .queue(DispatchQueue(label: "concurrent", attributes: .concurrent), .concurrentAsync)
            case .userSerialContext: return .custom(UserContextWithExecutor())
            case .userMutexContext: return .custom(UserQueueContext(type: .mutex))
            case .userConcurrentContext: return .custom(UserQueueContext(type: .concurrentAsync))
            }
        }

        /// Whether the context's own `invoke` waits for the block (a mutex) rather than returning at once.
        var waits: Bool { self == .syncQueue || self == .userMutexContext }
    }

    // Guarantees: G-inline-when-current
    @Test(arguments: Kind.allCases) func insideTheContextEachCallRunsInline(_ kind: Kind) {
        let context = kind.make()
        let derived = context.inlineWhenCurrent()
        let seen = Recorder<String>()
        context.invokeAsync {
            let ranBeforeReturning = Flag()
            derived.invoke {
                if context.isCurrent { ranBeforeReturning.set() }
            }
            seen.record("invoke \(ranBeforeReturning.isSet ? "inline" : "later")")
            seen.record("invokeSync \(derived.invokeSync { context.isCurrent ? 7 : 0 })")
            let waited = Flag()
            derived.invokeAndWait { waited.set() }
            seen.record("invokeAndWait \(waited.isSet ? "inline" : "missing")")
            seen.record("type \(derived.type.isImmediate ? "immediate" : "asynchronous") inside")
        }
        #expect(seen.wait(for: 4), "\(kind): a call from inside waited for itself")
        #expect(
            seen.recorded == ["invoke inline", "invokeSync 7", "invokeAndWait inline", "type immediate inside"],
            "\(kind)")
    }

    // Guarantees: G-inline-when-current
    @Test(arguments: Kind.allCases) func outsideTheContextABlockRunsAsTheContextRunsIt(_ kind: Kind) {
        let context = kind.make()
        let derived = context.inlineWhenCurrent()
        #expect(!derived.isCurrent)
        if kind.waits {
            let ranInside = Flag()
            derived.invoke { if context.isCurrent { ranInside.set() } }
            #expect(ranInside.isSet, "\(kind): a mutex's invoke still waits for the block, run inside it")
            #expect(derived.type.isImmediate)
        } else {
            let inside = Recorder<Bool>()
            #expect(
                runsOnlyAfterReturning { block in
                    derived.invoke {
                        inside.record(context.isCurrent)
                        block()
                    }
                })
            #expect(inside.recorded == [true], "\(kind): the block ran outside the context")
            #expect(!derived.type.isImmediate, "\(kind)")
        }
    }

    // Guarantees: G-inline-when-current, G-invokeasync-never-inline
    @Test(arguments: Kind.allCases) func invokeAsyncNeverRunsInlineEvenInside(_ kind: Kind) {
        let context = kind.make()
        let derived = context.inlineWhenCurrent()
        let events = Recorder<String>()
        context.invokeAsync {
            // Inline means before returning on the caller's thread; a concurrent context may start it elsewhere.
            let caller = pthread_self()
            let returned = Flag()
            derived.invokeAsync {
                events.record(!returned.isSet && pthread_equal(pthread_self(), caller) != 0 ? "inline" : "ran")
            }
            returned.set()
        }
        #expect(events.wait(), "\(kind)")
        #expect(events.recorded == ["ran"], "\(kind)")
    }

    /// What the doc's rule says for contexts that already run inline when inside, or that no caller is ever inside.
    // Guarantees: G-inline-when-current
    @Test func contextsThatAlreadyDecideByThemselvesComeBackUnchanged() {
        let queue = DispatchQueue(label: "conditional")
        #expect(isCase(Exec.direct.inlineWhenCurrent(), .direct))
        #expect(isCase(Exec.main.inlineWhenCurrent(), .main))
        #expect(isCase(Exec.mainAsync.inlineWhenCurrent(), .main))
        #expect(isCase(Exec.mainOrdered.inlineWhenCurrent(), .main))
        #expect(isCase(Exec.utility.inlineWhenCurrent(), .utility))
        if case .queue(let same, .conditionallyAsync) = Exec.queue(queue, .conditionallyAsync(true)).inlineWhenCurrent()
        {
            #expect(same === queue)
        } else {
            Issue.record("a conditional queue changed")
        }
        let serial = DispatchQueue(label: "serial")
        if case .queue(let same, .conditionallyAsync) = Exec.queue(serial, .serialAsync).inlineWhenCurrent() {
            #expect(same === serial, "an asynchronous serial queue becomes the same queue, conditionally asynchronous")
        } else {
            Issue.record("an asynchronous serial queue did not become a conditional one")
        }
        let immediate = CountingContext()
        if case .custom(let same) = Exec.custom(immediate).inlineWhenCurrent() {
            #expect(same as AnyObject === immediate)
        } else {
            Issue.record("an immediate custom context changed")
        }
    }

    /// The cost the doc states: one `isCurrent` per call; a second `inlineWhenCurrent()` adds no layer, and a
    /// `MutexContext`, re-entrant already, comes back unchanged.
    // Guarantees: G-inline-when-current-cost, G-inline-when-current
    @Test func eachCallAsksIsCurrentOnceAndASecondCallAddsNoLayer() {
        let counting = IsCurrentCountingContext()
        let derived = Exec.custom(counting).inlineWhenCurrent()
        derived.invoke {}
        #expect(counting.asked.withLock { $0 } == 1, "invoke")
        derived.invokeAndWait {}
        #expect(counting.asked.withLock { $0 } == 2, "invokeAndWait")
        #expect(derived.invokeSync { 3 } == 3)
        #expect(counting.asked.withLock { $0 } == 3, "invokeSync")
        derived.inlineWhenCurrent().invoke {}
        #expect(counting.asked.withLock { $0 } == 4, "a second inlineWhenCurrent() asks once, as the first")
        let mutex = MutexContext()
        if case .custom(let same) = Exec.custom(mutex).inlineWhenCurrent() {
            #expect(same as AnyObject === mutex)
        } else {
            Issue.record("a MutexContext was not returned as it was")
        }
    }

    /// `isReentrant` is `true` only where a nested call runs inline: inside, by the context's own `isCurrent`.
    /// Outside, or for a context of the user's whose `isCurrent` keeps the default `false`, it is the context's own.
    // Guarantees: G-inline-when-current
    @Test func isReentrantIsTheContextsOwnAnswerWhereIsCurrentCannotTell() {
        let mutex = Kind.userMutexContext.make()
        let derived = mutex.inlineWhenCurrent()
        #expect(!derived.isReentrant, "outside a mutex: its own answer")
        #expect(mutex.invokeSync { derived.isReentrant }, "inside: a nested call runs inline")
        let blind = Exec.custom(BlindMutexContext()).inlineWhenCurrent()
        #expect(!blind.isReentrant, "no isCurrent, no inline: not re-entrant")
    }

    /// The order the doc warns of: inline runs before blocks already queued; `invokeAsync` keeps their order.
    // Guarantees: G-inline-when-current-order
    @Test func anInlineBlockRunsBeforeBlocksAlreadyQueued() {
        let context = Exec.asyncQueue()
        let derived = context.inlineWhenCurrent()
        let order = Recorder<String>()
        context.invokeAsync {
            context.invokeAsync { order.record("queued earlier") }
            derived.invoke { order.record("inline") }
            derived.invokeAsync { order.record("invokeAsync") }
        }
        #expect(order.wait(for: 3))
        #expect(order.recorded == ["inline", "queued earlier", "invokeAsync"])
    }

    private func isCase(_ context: Exec, _ expected: Exec) -> Bool {
        switch (context, expected) {
        case (.direct, .direct), (.main, .main), (.utility, .utility): return true
        default: return false
        }
    }
}

/// A user's own context on a private queue, of the type given, that knows when it is current.
private struct UserQueueContext: ExecutionContext {
    let type: ExecutionType
    let queue: DispatchQueue
    let key = DispatchSpecificKey<Bool>()

    init(type: ExecutionType) {
        self.type = type
        queue = DispatchQueue(label: "UserQueueContext", attributes: type.isConcurrent ? .concurrent : [])
        queue.setSpecific(key: key, value: true)
    }

    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
    func invoke(_ execute: @escaping @Sendable () -> Void) {
        if type.isImmediate { queue.sync(execute: execute) } else { queue.async(execute: execute) }
    }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { queue.async(execute: execute) }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { queue.sync(execute: execute) }
}

/// An immediate context of the user's, a class so that the test can tell it is returned unchanged.
private final class CountingContext: ExecutionContext {
    var type: ExecutionType { .immediate }
    func invoke(_ execute: @escaping @Sendable () -> Void) { execute() }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { DispatchQueue.global().async(execute: execute) }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { execute() }
}

/// A serial context of the user's that counts how often its `isCurrent` is asked (it is never inside).
private final class IsCurrentCountingContext: ExecutionContext {
    let asked = LockedBox(0)
    let queue = DispatchQueue(label: "IsCurrentCountingContext")

    var type: ExecutionType { .serialAsync }
    var isCurrent: Bool {
        asked.withLock { $0 += 1 }
        return false
    }
    func invoke(_ execute: @escaping @Sendable () -> Void) { queue.async(execute: execute) }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { queue.async(execute: execute) }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { queue.sync(execute: execute) }
}

/// A mutex of the user's that keeps the default `isCurrent` (`false`): it cannot say when a caller is inside.
private struct BlindMutexContext: ExecutionContext {
    let queue = DispatchQueue(label: "BlindMutexContext")

    var type: ExecutionType { .mutex }
    func invoke(_ execute: @escaping @Sendable () -> Void) { queue.sync(execute: execute) }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { queue.async(execute: execute) }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { queue.sync(execute: execute) }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

/// Issue #28, item 4: `isReentrant` on a context answers what that context does (CwlUtils' meaning: a nested
/// `invokeSync` from inside runs without deadlock), not only what its type allows: `.mainAsync` is `.serialAsync`,
/// whose type answers `false`, yet ExecKit runs a nested `invokeSync` there inline. Each `true` is proved by doing it.
@Suite struct ReentrancyTests {
    static let contexts: [(name: String, make: @Sendable () -> Exec, isReentrant: Bool)] = [
        ("direct", { .direct }, true),
        ("main", { .main }, true),
        ("mainAsync", { .mainAsync }, true),
        ("mainOrdered", { .mainOrdered }, true),
        ("utility", { .utility }, true),
        ("asyncQueue", { .asyncQueue() }, true),
        ("conditionallyAsyncQueue", { .queue(DispatchQueue(label: "c"), .conditionallyAsync(true)) }, true),
        ("queueMainSerialAsync", { .queue(DispatchQueue.main, .serialAsync) }, true),
        ("syncQueue", { .syncQueue() }, false),
        ("directSerialized", { .direct.serialized() }, true),
        ("utilitySerialized", { .utility.serialized() }, true),
        ("asyncQueueAlwaysAsync", { Exec.asyncQueue().alwaysAsync() }, true),
        ("syncQueueAlwaysAsync", { Exec.syncQueue().alwaysAsync() }, true),
        ("customSerial (the type's answer)", { .custom(MinimalSerialContext()) }, false),
    ]

    // Guarantees: G-exec-isreentrant, G-invokesync-inline-inside
    @Test(arguments: 0..<contexts.count)
    func isReentrantAnswersWhatTheContextDoes(index: Int) {
        let (name, make, expected) = Self.contexts[index]
        let context = make()
        #expect(context.isReentrant == expected, "\(name)")
        guard expected else { return }
        // On a thread of its own, with a bound: a nested wait that deadlocks fails the test instead of hanging it.
        let value = LockedBox<Int?>(nil)
        let done = DispatchSemaphore(value: 0)
        startDetachedThread {
            let nested = context.invokeSync { context.invokeSync { 42 } }
            value.withLock { $0 = nested }
            done.signal()
        }
        #expect(waitBlocking(done, seconds: 20), "\(name): a nested invokeSync did not return")
        #expect(value.withLock { $0 } == 42, "\(name)")
    }

    // Guarantees: G-exec-isreentrant, G-type-predicates-cwlutils
    @Test func theTypeKeepsCwlUtilsAnswer() {
        #expect(Exec.mainAsync.type == .serialAsync)
        #expect(!Exec.mainAsync.type.isReentrant)
        #expect(Exec.mainAsync.isReentrant)
    }
}

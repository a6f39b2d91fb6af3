// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Testing

/// `relativeAsync(qos:)` answers as CwlUtils' did: a concurrent queue to move work to, away from the context.
@Suite struct RelativeAsyncTests {
    private func caseName(_ context: Exec) -> String {
        switch context {
        case .interactive: return "interactive"
        case .user: return "user"
        case .default: return "default"
        case .utility: return "utility"
        case .background: return "background"
        default: return "\(context)"
        }
    }

    // Guarantees: G-exec-relativeasync
    @Test func eachContextMovesWorkToTheGlobalQueueCwlUtilsNamed() {
        #expect(caseName(Exec.main.relativeAsync()) == "interactive")
        #expect(caseName(Exec.mainAsync.relativeAsync()) == "interactive")
        #expect(caseName(Exec.direct.relativeAsync()) == "default")
        #expect(caseName(Exec.utility.relativeAsync()) == "utility")
        #expect(caseName(Exec.asyncQueue(qos: .background).relativeAsync()) == "background")
        #expect(caseName(Exec.syncQueue().relativeAsync()) == "default", "a queue without a QoS")
        #expect(caseName(Exec.custom(MinimalSerialContext()).relativeAsync()) == "default")
        #expect(caseName(Exec.direct.serialized().relativeAsync()) == "default")
    }

    // Guarantees: G-exec-relativeasync
    @Test func aGivenQoSPicksThatGlobalQueue() {
        #expect(caseName(Exec.main.relativeAsync(qos: .utility)) == "utility")
        #expect(caseName(Exec.background.relativeAsync(qos: .userInitiated)) == "user")
        #expect(caseName(Exec.custom(MinimalSerialContext()).relativeAsync(qos: .background)) == "background")
    }

    // Guarantees: G-exec-relativeasync
    @Test func theResultIsAlwaysConcurrentAndAsynchronous() {
        for context in [Exec.main, .direct, .utility, .syncQueue(), .asyncQueue(), .custom(MinimalSerialContext())] {
            let moved = context.relativeAsync()
            #expect(moved.type == .concurrentAsync, "\(context).relativeAsync() is \(moved.type)")
        }
    }
}

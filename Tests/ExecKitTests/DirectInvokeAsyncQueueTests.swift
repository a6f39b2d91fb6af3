// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Exit tests exist on macOS, Linux and Windows only: the test targets also build for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux) || os(Windows)

/// *Choosing a context*: "On ``Exec/direct`` [`invokeAsync`] uses a default-QoS global queue" (issue #32).
///
/// The queue is identified with `dispatchPrecondition`, libdispatch's own check of which queue runs the caller (the
/// global queues answer `isCurrent` with `false` on purpose, see `DispatchQueue.isCurrent`). A failed precondition
/// stops the process, so the check runs in a child process: the block must find itself on the default-QoS global queue
/// and on none of the others, nor on the main queue.
@Suite struct DirectInvokeAsyncQueueTests {
    // Guarantees: G-direct-invokeasync-default-qos
    @Test func directInvokeAsyncRunsOnTheDefaultQoSGlobalQueue() async {
        await #expect(processExitsWith: .success) {
            let checked = DispatchSemaphore(value: 0)
            for _ in 0..<20 {
                Exec.direct.invokeAsync {
                    dispatchPrecondition(condition: .onQueue(.global(qos: .default)))
                    for other in [DispatchQoS.QoSClass.userInteractive, .userInitiated, .utility, .background] {
                        dispatchPrecondition(condition: .notOnQueue(.global(qos: other)))
                    }
                    dispatchPrecondition(condition: .notOnQueue(.main))
                    checked.signal()
                }
            }
            for _ in 0..<20 where !waitBlocking(checked, seconds: 10) { exit(2) }
        }
    }
}
#endif

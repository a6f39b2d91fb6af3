// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecDispatch
import ExecKit
import ExecTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Exit tests exist on macOS, Linux and Windows only.
#if os(macOS) || os(Linux) || os(Windows)

/// Issue #29, defect 2: the re-entry rule, one per context kind and way of crossing threads. The rule (see
/// `EnteredContexts`): a block that runs for a caller parked in a `sync` is inside every context that caller is
/// inside, so a re-entrant serial context runs a nested `invokeSync` inline there and answers `isCurrent`; a mutex-type
/// queue (`syncQueue()`) never re-enters and stops with its message.
///
/// Before one record answered for every context, `Exec.direct.serialized()` (a `MutexContext`) recognised only its
/// own thread: `m.invoke { w.wait { m.invoke { } } }`, where the wait ran the block on another thread, hung with no
/// message. Each kind runs in a child process, which tries every crossing in turn and prints a line for each.
// Guarantees: G-iscurrent-per-kind, G-serial-lent-exclusion
@Suite struct CrossThreadReentryTests {
    // Guarantees: G-invokesync-inline-inside
    @Test func aPrivateSerialQueueRunsANestedInvokeSyncInlineAcrossEveryCrossing() async {
        CrossingReport.check(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                CrossingChild.run(.asyncQueue)
            })
    }

    // Guarantees: G-invokesync-inline-inside, G-serialized-immediate-reentrant
    @Test func aSerializedDirectContextRunsANestedInvokeSyncInlineAcrossEveryCrossing() async {
        CrossingReport.check(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                CrossingChild.run(.serializedDirect)
            })
    }

    // Guarantees: G-invokesync-inline-inside
    @Test func aSerializedConcurrentContextRunsANestedInvokeSyncInlineAcrossEveryCrossing() async {
        CrossingReport.check(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                CrossingChild.run(.serializedUtility)
            })
    }

    @Test func aSyncQueueStopsWithItsMessageThroughARawSync() async {
        SyncQueueReport.check(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                CrossingChild.reenter(Exec.syncQueue(label: "mutex"), through: .rawSync)
            })
    }

    @Test func aSyncQueueStopsWithItsMessageThroughAnotherQueuesInvokeSync() async {
        SyncQueueReport.check(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                CrossingChild.reenter(Exec.syncQueue(label: "mutex"), through: .asyncQueueInvokeSync)
            })
    }

    @Test func aSyncQueueStopsWithItsMessageThroughAWorkloopWaitOnAnotherThread() async {
        SyncQueueReport.check(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                CrossingChild.reenter(Exec.syncQueue(label: "mutex"), through: .workloopWaitOnABusyQueue)
            })
    }
}

/// The serial contexts whose nested `invokeSync` runs inline.
enum CrossingTarget: Sendable {
    case asyncQueue, serializedDirect, serializedUtility

    func make() -> Exec {
        switch self {
        case .asyncQueue: return .asyncQueue(label: "entered")
        case .serializedDirect: return Exec.direct.serialized()
        case .serializedUtility: return Exec.utility.serialized()
        }
    }
}

/// A way for a block inside a context to reach code that runs for it, parked, possibly on another thread.
enum Crossing: String, CaseIterable, Sendable {
    /// `DispatchQueue.sync` on a private queue: libdispatch runs the block on the caller's thread.
    case rawSync
    /// ExecKit's `invokeSync` on another private serial queue, which carries the caller's record.
    case asyncQueueInvokeSync
    /// The wait a `DispatchWorkloop` takes (`dispatch_async_and_wait`), onto a private queue busy on another thread, so
    /// that the queue's own thread runs the block.
    case workloopWaitOnABusyQueue

    /// Runs `body` through this crossing, and waits for it.
    func pass(_ body: @escaping @Sendable () -> Void) {
        switch self {
        case .rawSync: DispatchQueue(label: "raw").sync(execute: body)
        case .asyncQueueInvokeSync: Exec.asyncQueue(label: "other").invokeSync(body)
        case .workloopWaitOnABusyQueue:
            let queue = DispatchQueue(label: "busy")
            let started = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            queue.async {
                started.signal()
                release.wait()
            }
            started.wait()
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { release.signal() }
            SerialQueueEntry(queue).sync(waitingWith: .asyncAndWait, body)
        }
    }
}

/// The child's side: enter the context from outside, cross, check, print.
enum CrossingChild {
    static func run(_ target: CrossingTarget) -> Never {
        let context = target.make()
        for crossing in Crossing.allCases {
            let outcome = LockedBox("no outcome")
            let done = DispatchSemaphore(value: 0)
            startDetachedThread {
                context.invokeSync {
                    let outer = ThreadIdentity.current
                    crossing.pass {
                        let inside = context.isCurrent
                        let nested = context.invokeSync { context.isCurrent }
                        let thread = ThreadIdentity.current == outer ? "same thread" : "another thread"
                        outcome.withLock { $0 = inside && nested ? "ok (\(thread))" : "FAIL isCurrent \(inside)" }
                    }
                }
                done.signal()
            }
            guard done.wait(timeout: .now() + 10) == .success else {
                print("FAIL \(crossing.rawValue): timed out (a deadlock)")
                exit(1)
            }
            print("\(outcome.withLock { $0 }) \(crossing.rawValue)")
        }
        exit(0)
    }

    /// Enters `context` from outside, crosses, and invokes it again: a mutex-type queue must stop the program.
    static func reenter(_ context: Exec, through crossing: Crossing) -> Never {
        let done = DispatchSemaphore(value: 0)
        startDetachedThread {
            context.invokeSync { crossing.pass { context.invokeSync {} } }
            done.signal()
        }
        _ = done.wait(timeout: .now() + 10)
        print("no stop: the nested invokeSync \(done.wait(timeout: .now()) == .success ? "returned" : "hung")")
        exit(0)
    }
}

/// The parent's side of a `syncQueue()` child: it stopped with the re-entry message.
enum SyncQueueReport {
    static func check(_ result: ExitTest.Result?) {
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("invoked from inside that same queue"), "child output:\n\(message)")
    }
}

/// The parent's side: every crossing reported "ok", and the busy queue's wait did cross to another thread.
enum CrossingReport {
    static func check(_ result: ExitTest.Result?) {
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        let lines = output.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("FAIL") }, "child output:\n\(output)")
        for crossing in [Crossing.rawSync, .asyncQueueInvokeSync] {
            #expect(
                lines.contains { $0.hasPrefix("ok") && $0.hasSuffix(crossing.rawValue) }, "child output:\n\(output)")
        }
        #expect(lines.contains("ok (another thread) workloopWaitOnABusyQueue"), "child output:\n\(output)")
    }
}
#endif

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Exit tests (and `Process`) exist on macOS, Linux and Windows only: the test targets also build for iOS, tvOS,
// watchOS and visionOS without them.
#if os(macOS) || os(Linux) || os(Windows)

/// However a block entered a serial asynchronous context (issue #23), code it reaches through another queue's `sync`
/// still counts as inside it: `isCurrent` is `true`, and `invokeSync` runs inline, as the docs promise (README: "
/// `invokeSync` from inside a serial asynchronous context ... runs the block inline"). Before, only an entry through
/// `invokeSync` or a timer left the record this needs, and `invokeSync` back onto the queue died in libdispatch's
/// deadlock trap with no message (or, through `Exec.main.invokeSync`, waited forever).
///
/// Each entry path runs in a child process (an exit test), so a crash fails that path alone; the child tries every
/// intermediate in turn and prints a line for each, which the parent checks.
// Guarantees: G-iscurrent-per-kind, G-invokesync-inline-inside
@Suite struct EntryPathReentryTests {
    @Test func aPrivateQueueEnteredThroughInvoke() async {
        EntryPathReport.check(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                EntryPathChild.run(.asyncQueue, .invoke)
            })
    }

    @Test func aPrivateQueueEnteredThroughInvokeAsync() async {
        EntryPathReport.check(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                EntryPathChild.run(.asyncQueue, .invokeAsync)
            })
    }

    @Test func aPrivateQueueEnteredThroughInvokeAfter() async {
        EntryPathReport.check(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                EntryPathChild.run(.asyncQueue, .invokeAfter)
            })
    }

    @Test func aPrivateQueueEnteredThroughASingleTimer() async {
        EntryPathReport.check(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                EntryPathChild.run(.asyncQueue, .singleTimer)
            })
    }

    @Test func aPrivateQueueEnteredThroughAPeriodicTimer() async {
        EntryPathReport.check(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                EntryPathChild.run(.asyncQueue, .periodicTimer)
            })
    }

    @Test func aPrivateQueueEnteredThroughATaskJob() async {
        EntryPathReport.check(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                EntryPathChild.run(.asyncQueue, .task)
            })
    }

    @Test func aPrivateQueueEnteredThroughAnActorJob() async {
        EntryPathReport.check(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                EntryPathChild.run(.asyncQueue, .actorJob)
            })
    }

    @Test func aPrivateQueueEnteredThroughInvokeSync() async {
        EntryPathReport.check(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                EntryPathChild.run(.asyncQueue, .invokeSync)
            })
    }

    @Test func theMainQueueEnteredThroughInvoke() async {
        EntryPathReport.check(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                EntryPathChild.run(.main, .invoke)
            })
    }

    @Test func theMainQueueEnteredThroughInvokeAsync() async {
        EntryPathReport.check(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                EntryPathChild.run(.main, .invokeAsync)
            })
    }

    @Test func theMainQueueEnteredThroughMainOrdered() async {
        EntryPathReport.check(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                EntryPathChild.run(.mainOrdered, .invoke)
            })
    }

    @Test func theMainQueueEnteredThroughInvokeAfter() async {
        EntryPathReport.check(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                EntryPathChild.run(.main, .invokeAfter)
            })
    }

    @Test func theMainQueueEnteredThroughASingleTimer() async {
        EntryPathReport.check(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                EntryPathChild.run(.main, .singleTimer)
            })
    }

    /// A task on `.main` runs on the runtime's main executor, as `Task { @MainActor in }` does (issue #40, item 1),
    /// whose jobs ExecKit does not record: through ExecKit's own `sync` paths its block is still inside the main
    /// queue (the caller lends it), but not through a raw `DispatchQueue.sync`, which lends nothing ExecKit can see.
    // Guarantees: G-serial-lent-exclusion
    @Test func theMainQueueEnteredThroughATaskJob() async {
        EntryPathReport.check(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                EntryPathChild.run(.main, .task)
            }, rawSyncLends: false)
    }

    /// The issue's own snippet: `a.invoke { m.invoke { a.invokeSync { … } } }` with `m` a `syncQueue()`.
    @Test func theIssuesSnippetRunsInline() async {
        await #expect(processExitsWith: .success) {
            let a = Exec.asyncQueue()
            let m = Exec.syncQueue()
            let ranInline = LockedBox(false)
            let done = DispatchSemaphore(value: 0)
            a.invoke {
                m.invoke { a.invokeSync { ranInline.withLock { $0 = true } } }
                done.signal()
            }
            exit(EntryPathChild.waits(for: done) && ranInline.withLock { $0 } ? 0 : 1)
        }
    }
}

/// The context a child enters.
enum EntryTarget: Sendable {
    case asyncQueue, main, mainOrdered

    func make() -> Exec {
        switch self {
        case .asyncQueue: return .asyncQueue(label: "entered")
        case .main: return .main
        case .mainOrdered: return .mainOrdered
        }
    }
}

/// How a child's block enters its context.
enum EntryPath: Sendable {
    case invoke, invokeAsync, invokeAfter, singleTimer, periodicTimer, task, actorJob, invokeSync

    /// Runs `block` once inside `context`, entered this way, from a thread outside it.
    func enter(_ context: Exec, _ block: @escaping @Sendable () -> Void) {
        let keep = LockedBox<(any Lifetime)?>(nil)
        switch self {
        case .invoke: context.invoke(block)
        case .invokeAsync: context.invokeAsync(block)
        case .invokeAfter: context.invoke(after: .milliseconds(1), block)
        case .singleTimer:
            keep.withLock {
                $0 = context.singleTimer(interval: .milliseconds(1)) {
                    block(); keep.withLock { $0 = nil }
                }
            }
        case .periodicTimer:
            keep.withLock {
                $0 = context.periodicTimer(interval: .milliseconds(1)) {
                    guard let timer = keep.withLock({ $0 }) else { return }
                    timer.cancel()
                    keep.withLock { $0 = nil }
                    block()
                }
            }
        case .task: context.task { block() }
        case .actorJob:
            let actor = ContextBoundActor(context: context)
            Task.detached { await actor.run(block) }
        case .invokeSync: startDetachedThread { context.invokeSync(block) }
        }
    }
}

/// An actor whose executor is a context's.
actor ContextBoundActor {
    let context: Exec
    init(context: Exec) { self.context = context }
    nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedSerialExecutor }
    func run(_ block: @Sendable () -> Void) { block() }
}

/// What stands between the entered block and the `invokeSync` back onto its context.
enum Intermediate: String, CaseIterable, Sendable {
    case rawSync, syncQueueInvoke, asyncQueueInvokeSync, mainInvokeSync

    func pass(_ body: @escaping @Sendable () -> Void) {
        switch self {
        case .rawSync: DispatchQueue(label: "raw").sync(execute: body)
        case .syncQueueInvoke: Exec.syncQueue(label: "mutex").invoke(body)
        case .asyncQueueInvokeSync: Exec.asyncQueue(label: "other").invokeSync(body)
        case .mainInvokeSync: Exec.main.invokeSync(body)
        }
    }
}

/// The child's side: enter, pass through each intermediate, check, print.
enum EntryPathChild {
    static func run(_ target: EntryTarget, _ path: EntryPath) -> Never {
        let context = target.make()
        for intermediate in Intermediate.allCases {
            // From the main queue, Exec.main.invokeSync runs inline without any record: nothing to test there.
            if target != .asyncQueue && intermediate == .mainInvokeSync { continue }
            // A main-queue task's jobs come from the runtime's main executor, unrecorded: a raw sync lends nothing.
            if target != .asyncQueue && path == .task && intermediate == .rawSync { continue }
            let outcome = LockedBox("no outcome")
            let done = DispatchSemaphore(value: 0)
            path.enter(context) {
                intermediate.pass {
                    let inside = context.isCurrent
                    let insideInvokeSync = context.invokeSync { context.isCurrent }
                    outcome.withLock { $0 = inside && insideInvokeSync ? "ok" : "FAIL isCurrent \(inside)" }
                }
                done.signal()
            }
            guard waits(for: done) else {
                print("FAIL \(intermediate.rawValue): timed out (a deadlock)")
                exit(1)
            }
            print("\(outcome.withLock { $0 }) \(intermediate.rawValue)")
        }
        exit(0)
    }

    /// Whether `semaphore` was signalled within 10 s. Synchronous, so an async caller may use it.
    static func waits(for semaphore: DispatchSemaphore) -> Bool {
        semaphore.wait(timeout: .now() + 10) == .success
    }
}

/// The parent's side: every intermediate the child tried reported "ok".
enum EntryPathReport {
    static func check(_ result: ExitTest.Result?, rawSyncLends: Bool = true) {
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        let lines = output.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("FAIL") }, "child output:\n\(output)")
        #expect(lines.contains("ok rawSync") == rawSyncLends, "child output:\n\(output)")
        #expect(lines.contains("ok syncQueueInvoke"), "child output:\n\(output)")
        #expect(lines.contains("ok asyncQueueInvokeSync"), "child output:\n\(output)")
    }
}
#endif

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims
import ExecKit
@_spi(ExecTesting) import ExecMutex
import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Swift's global executor as a coordinator that captures tasks sees it (issue #41): while one such coordinator
/// exists, the runtime's `swift_task_enqueueGlobal_hook` is ExecTesting's, and each job enqueued on the global executor
/// goes to the coordinator it belongs to, as work of its ``TestCoordinator/global`` queue; every other job goes on to
/// the hook installed before, or to the global executor.
///
/// A job belongs to a coordinator when it is enqueued:
/// - on a thread running that coordinator's work (a task started, a continuation resumed or an actor scheduled by
///   work it runs), which a C thread-local says;
/// - or by code inside ``TestCoordinator/withTasksCaptured(hangGrace:filePath:line:_:)`` (an exploration's body, when it captures), which a
///   task-local says, so that a task started there, and the tasks it starts, belong too.
///
/// - or, for a task one of whose jobs a coordinator captured, while that coordinator still captures: a task woken by
///   a thread of no coordinator (a real `Task.sleep` ending, a continuation resumed from a real queue) comes back to
///   it. ``CapturedTaskIDs`` records them.
///
/// So tests that run in parallel keep their own jobs: one that captures nothing runs its tasks on Swift's executor as
/// before. A captured task woken from outside once the `withTasksCaptured` call has returned runs on Swift's
/// executor.
///
/// - Thread-safety: the hook is installed by the first capturing coordinator and removed by the last, under one lock,
///   with atomic writes; a hook another library installed since is left in place.
enum GlobalJobCapture {
    typealias Original = @convention(thin) (UnownedJob) -> Void
    typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

    /// The ticket of the `withTasksCaptured` body running in this task, or that started it (see
    /// ``TestCoordinator/withTasksCaptured(hangGrace:filePath:line:_:)``): it names the coordinator its jobs go to.
    @TaskLocal static var bodyTicket: CaptureTicket?

    /// The address of the runtime's hook variable (kept as a number: an address is not `Sendable`), or 0 where the
    /// runtime does not export it.
    private static let hookVariable: UInt = UInt(
        bitPattern: dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook"))

    private static var hookAddress: UnsafeMutablePointer<UnsafeMutableRawPointer?>? {
        UnsafeMutablePointer(bitPattern: hookVariable)
    }

    /// How many capturing coordinators exist; installing and removing the hook happen under its lock.
    private static let installation = LockedBox(0, observed: false)

    /// Whether capture is possible here: the runtime exports its hook.
    static var isAvailable: Bool { hookVariable != 0 }

    /// Installs the hook for one more capturing coordinator (the first installs it).
    static func retain() {
        guard let hookAddress else { return }
        installation.withLock { count in
            defer { count += 1 }
            guard count == 0 else { return }
            let ours = unsafeBitCast(hook, to: UnsafeMutableRawPointer.self)
            while true {
                let current = execkit_load_hook(hookAddress)
                // Ours may still be there, put back by a library that saved it while we were installed: the hook
                // before it is then still the one recorded. Recording ours would make ours call itself for ever.
                let previous =
                    current == ours ? previousHook.load(ordering: .relaxed) : UInt(bitPattern: current)
                // Recorded before ours goes in, so that no job passes through ours before it knows where to go on.
                previousHook.store(previous, ordering: .releasing)
                if execkit_replace_hook(hookAddress, current, ours) != 0 { return }
            }
        }
    }

    /// Removes the hook for one capturing coordinator fewer (the last puts back the previous hook, unless another
    /// hook was installed over ours since: that one stays).
    static func release() {
        guard let hookAddress else { return }
        installation.withLock { count in
            count -= 1
            guard count == 0 else { return }
            let ours = unsafeBitCast(hook, to: UnsafeMutableRawPointer.self)
            let previous = UnsafeMutableRawPointer(bitPattern: previousHook.load(ordering: .relaxed))
            _ = execkit_replace_hook(hookAddress, ours, previous)
        }
    }

    /// The hook installed before ours (its address; 0 for none), read by ours for every job that is not captured:
    /// an atomic load, where a lock would put every task of every test in the process behind one. Written only under
    /// ``installation``'s lock, which `release()` also reads it under.
    private static let previousHook = Atomic<UInt>(0)

    /// Ours: a job of a capturing coordinator goes to it; any other, to the previous hook or the global executor.
    private static let hook: Hook = { job, original in
        let thread = execkit_current_job_capture_target()
        if let target = enqueuer(onThreadOf: thread) {
            target.capture(job, original: original)
        } else if thread == nil, let target = CapturedTaskIDs.target(of: job) {
            target.captureWoken(job, original: original)
        } else if let previous = UnsafeMutableRawPointer(bitPattern: previousHook.load(ordering: .acquiring)) {
            unsafeBitCast(previous, to: Hook.self)(job, original)
        } else {
            original(job)
        }
    }

    /// The coordinator a job enqueued now belongs to by who enqueues it, if any: the thread's (`thread`, its C
    /// thread-local), then the enqueuing task's. Inside ``enqueueUncaptured(_:)``, none; nor does the job's own task
    /// bring it back then (the hook reads task ids only on a thread with no target at all).
    private static func enqueuer(onThreadOf thread: UnsafeMutableRawPointer?) -> CaptureTarget? {
        if let thread {
            if thread == noCapture { return nil }
            return Unmanaged<CaptureTarget>.fromOpaque(thread).takeUnretainedValue()
        }
        return bodyTicket?.target
    }

    /// The thread's capture target while ``enqueueUncaptured(_:)`` runs: none, whatever the task says.
    nonisolated(unsafe) private static let noCapture = UnsafeMutableRawPointer(bitPattern: 1)!

    /// Enqueues `job` on Swift's global executor, never into a coordinator: for a job a coordinator drops, which must
    /// run on a real executor so that its task finishes.
    static func enqueueUncaptured(_ job: UnownedJob) {
        let previous = execkit_exchange_job_capture_target(noCapture)
        defer { _ = execkit_exchange_job_capture_target(previous) }
        globalConcurrentExecutor.enqueue(job)
    }

    /// Runs `body` with `target` as this thread's capture target (`nil`: none), restoring the one before.
    static func runningWork<Return>(for target: CaptureTarget?, _ body: () throws -> Return) rethrows -> Return {
        guard let target else { return try body() }
        let previous = execkit_exchange_job_capture_target(Unmanaged.passUnretained(target).toOpaque())
        defer { _ = execkit_exchange_job_capture_target(previous) }
        return try withExtendedLifetime(target) { try body() }
    }
}

/// What the tasks started inside one ``TestCoordinator/withTasksCaptured(hangGrace:filePath:line:_:)`` call carry, as the task-local value
/// ``GlobalJobCapture/bodyTicket``: a task copies its creator's task-local values when it starts and releases them when
/// it finishes (whoever still holds its `Task`), so the ticket lives exactly as long as one of those tasks has not
/// finished, and the coordinator, which holds it weakly, knows when one is left waiting.
final class CaptureTicket: Sendable {
    let target: CaptureTarget

    init(target: CaptureTarget) { self.target = target }
}

/// Where a capturing coordinator's global jobs go: its ``TestCoordinator/global`` queue, run with its task executor.
final class CaptureTarget: Sendable {
    private let executor: SimulatedTaskExecutor
    /// The tasks whose jobs it took: woken from outside while it captures, they come back to it.
    let tasks = CapturedTaskIDs()

    init(executor: SimulatedTaskExecutor) {
        self.executor = executor
    }

    /// Schedules `job` as work of the coordinator, and records its task as this target's while it captures; a job the
    /// coordinator drops goes to `original`, the global executor, so that its task still finishes.
    func capture(_ job: UnownedJob, original: GlobalJobCapture.Original) {
        tasks.record(job)
        executor.schedule(job) { original($0) }
    }

    /// Schedules `job`, of a task of this target's woken by a thread of no coordinator, as work of the coordinator
    /// while it still captures into this target; otherwise it goes to `original`.
    func captureWoken(_ job: UnownedJob, original: GlobalJobCapture.Original) {
        executor.scheduleWoken(job, for: self) { original($0) }
    }
}

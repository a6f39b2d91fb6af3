// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

@_spi(ExecTesting) import ExecMutex
import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The tasks whose jobs a capturing coordinator has taken, by the runtime's task id: so that a task woken by a thread
/// of no coordinator (a real `Task.sleep` ending, a continuation resumed from a real queue) comes back to its
/// coordinator while it captures, instead of going on on Swift's executor beside the coordinator's work (issue #41).
///
/// A task's id is the runtime's (`swift_task_getJobTaskId`): unique in the process (a 64-bit count), so only a task
/// whose job this coordinator ran comes back to it. A task of another test does only if this coordinator's work once
/// resumed it. Only task jobs count (`swift_task_getJobFlags` says a job's kind); where the runtime exports neither
/// function, nothing is recorded, and such a task goes on on Swift's executor. A woken job still pending when the
/// capture ends goes to Swift's executor (``CoordinatorStorage/endCapturing()``).
///
/// - Cost: each captured job records its task in its coordinator's sorted list: an append, as a new task's id is
///   larger than those before, or a binary search for a task seen before; one uncontended lock. Every other job
///   enqueued on the global executor pays one atomic load while no coordinator captures, and, while one does, a lock
///   shared by the process and a binary search in each capturing coordinator's list: 40,000 detached tasks awaited
///   one by one on another thread took about 27 ms instead of 21 (release build, 2,000 tasks recorded).
/// - Thread-safety: the lists and the capturing coordinators are each under a lock of their own; no job runs under
///   one.
final class CapturedTaskIDs: Sendable {
    /// The ids of the tasks recorded, in increasing order.
    private let ids = LockedBox<[UInt64]>([], observed: false)
    /// The two tasks recorded last: a task's jobs come again and again (a parent awaiting its children), and one of
    /// these spares the lock. Set only once the task is in `ids`, which never loses one, so a stale value is still true.
    private let lastRecorded = Atomic<UInt64>(0)
    private let recordedBeforeLast = Atomic<UInt64>(0)

    /// The runtime's functions, copied here: reading them costs each captured job no lazy initialization check.
    private let functions = CapturedTaskIDs.runtimeFunctions

    /// Records `job`'s task, if it is a task's job.
    func record(_ job: UnownedJob) {
        guard let id = Self.taskID(of: job, functions),
            id != lastRecorded.load(ordering: .relaxed), id != recordedBeforeLast.load(ordering: .relaxed)
        else { return }
        ids.withLock { ids in
            if let last = ids.last, id <= last {
                let index = Self.insertionIndex(of: id, in: ids)
                if index == ids.count || ids[index] != id { ids.insert(id, at: index) }
            } else {
                ids.append(id)
            }
            recordedBeforeLast.store(lastRecorded.load(ordering: .relaxed), ordering: .relaxed)
            lastRecorded.store(id, ordering: .relaxed)
        }
    }

    /// Whether the task `id` names was recorded.
    private func contains(_ id: UInt64) -> Bool {
        ids.withLock { ids in
            let index = Self.insertionIndex(of: id, in: ids)
            return index < ids.count && ids[index] == id
        }
    }

    /// The index of the first of `ids` (increasing) that is not below `id`.
    private static func insertionIndex(of id: UInt64, in ids: [UInt64]) -> Int {
        var low = 0
        var high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low
    }

    // MARK: The capturing coordinators

    /// The capture targets of the coordinators capturing now, each with its tasks.
    private static let capturing = LockedBox<[CaptureTarget]>([], observed: false)
    /// Whether `capturing` is not empty: spares every job the lock while no coordinator captures.
    private static let anyCapturing = Atomic(false)

    /// Makes `target`'s tasks come back to it when woken from outside, until ``stopCapturing(_:)``.
    static func startCapturing(_ target: CaptureTarget) {
        capturing.withLock { targets in
            targets.append(target)
            anyCapturing.store(true, ordering: .releasing)
        }
    }

    /// Ends ``startCapturing(_:)``: `target`'s tasks woken from outside from now on go on on Swift's executor.
    static func stopCapturing(_ target: CaptureTarget) {
        capturing.withLock { targets in
            targets.removeAll { $0 === target }
            if targets.isEmpty { anyCapturing.store(false, ordering: .releasing) }
        }
    }

    /// The capturing coordinator's target one of whose jobs was `job`'s task's, if any.
    static func target(of job: UnownedJob) -> CaptureTarget? {
        guard anyCapturing.load(ordering: .acquiring), let id = taskID(of: job, runtimeFunctions) else { return nil }
        return capturing.withLock { targets in targets.first { $0.tasks.contains(id) } }
    }

    // MARK: The runtime's ids

    // The runtime declares both with Swift's calling convention (SWIFT_CC(swift)), as a thin function is called.
    private typealias TaskIDFunction = @convention(thin) (UnsafeMutableRawPointer) -> UInt64
    private typealias FlagsFunction = @convention(thin) (UnsafeMutableRawPointer) -> UInt32

    /// The runtime's `swift_task_getJobTaskId` and `swift_task_getJobFlags` (their addresses, 0 where not exported),
    /// looked up together.
    private static let runtimeFunctions = (
        taskID: UInt(bitPattern: dlsym(dlopen(nil, RTLD_NOW), "swift_task_getJobTaskId")),
        flags: UInt(bitPattern: dlsym(dlopen(nil, RTLD_NOW), "swift_task_getJobFlags"))
    )

    /// The id of the task `job` runs, or `nil` for a job that is no task's (a yield's continuation, an actor's turn)
    /// or where the runtime cannot say.
    private static func taskID(of job: UnownedJob, _ functions: (taskID: UInt, flags: UInt)) -> UInt64? {
        guard let taskID = UnsafeRawPointer(bitPattern: functions.taskID),
            let flags = UnsafeRawPointer(bitPattern: functions.flags)
        else { return nil }
        let pointer = unsafeBitCast(job, to: UnsafeMutableRawPointer.self)
        // JobFlags' low byte is the job's kind; 0 is a task.
        guard unsafeBitCast(flags, to: FlagsFunction.self)(pointer) & 0xFF == 0 else { return nil }
        return unsafeBitCast(taskID, to: TaskIDFunction.self)(pointer)
    }
}

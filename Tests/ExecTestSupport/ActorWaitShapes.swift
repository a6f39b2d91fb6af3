// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

package import ExecKit
import Foundation

// The shapes of issue #27: tasks started in a serial context that wait for each other through an actor on the same
// context. Shared by ExecKitTests, ExecTestingTests (on a coordinator's contexts) and the stress suite.

/// Whether `operation` finishes within `seconds` of starting. A hung operation is left behind: a task waiting on a
/// continuation that nothing will resume cannot be cancelled.
///
/// The bound counts from the moment the operation starts on Swift's global executor, not from this call: a test run
/// whose other tests hold the cooperative pool delays the start, which is not what this measures.
package func finishes(within seconds: Double, _ operation: @escaping @Sendable () async -> Void) async -> Bool {
    let claimed = LockedBox(false)
    let claim = { @Sendable () -> Bool in  // whether this caller is the first, which alone resumes
        claimed.withLock { taken in
            if taken { return false }
            taken = true
            return true
        }
    }
    return await withCheckedContinuation { continuation in
        Task.detached {
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                if claim() { continuation.resume(returning: false) }
            }
            await operation()
            if claim() { continuation.resume(returning: true) }
        }
    }
}

/// The ways tasks on one context wait for each other through an actor on that context.
package enum ActorWaitShape: CaseIterable, CustomStringConvertible, Sendable {
    /// One task waits until a gate opens, another opens it (the shape of issue #27's report).
    case gate
    /// Three tasks wait on a counting semaphore, three signal it, interleaved.
    case semaphore
    /// One task sends values into an `AsyncStream` through the actor, another receives them through the actor.
    case stream
    /// A task waits for a timer on the same context, which it started just before checking whether it fired.
    case timer

    package var description: String {
        switch self {
        case .gate: "gate"
        case .semaphore: "semaphore"
        case .stream: "stream"
        case .timer: "timer"
        }
    }

    /// `Exec.main.task { … }` calling into main-actor state: the gate shape on a `@MainActor` class.
    ///
    /// - Parameter launcher: what starts the tasks: `Exec.main` unless given; `nil` for plain `Task { }`s.
    package static func runOnMainActorState(waiterFirst: Bool, launcher: Exec? = .main) async {
        let gate = MainActorGate()
        var tasks: [Task<Void, Never>] = []
        guard let launcher else {
            if waiterFirst { tasks.append(Task { await gate.wait() }) }
            tasks.append(Task { await gate.signal() })
            if !waiterFirst { tasks.append(Task { await gate.wait() }) }
            for task in tasks { await task.value }
            return
        }
        // `{ @MainActor in await gate.wait() }` would be the closer shape, but Swift 6.3 rejects an `@MainActor`
        // closure that awaits, passed as `task`'s (and `Task(executorPreference:)`'s) nonisolated operation ("pattern
        // that the region-based isolation checker does not understand"). These closures call into the main actor.
        if waiterFirst { tasks.append(launcher.task { await gate.wait() }) }
        tasks.append(launcher.task { await gate.signal() })
        if !waiterFirst { tasks.append(launcher.task { await gate.wait() }) }
        for task in tasks { await task.value }
    }

    /// Runs the shape once on `context`, with tasks started by `context.task`; returns when every task has finished.
    ///
    /// - Parameter waiterFirst: whether the waiting task is started before the signalling one.
    package func run(on context: Exec, waiterFirst: Bool) async {
        await run(on: context, startingTasksOn: context, waiterFirst: waiterFirst)
    }

    /// Runs the shape once with its actor on `context` and its tasks started by `launcher.task`.
    package func run(on context: Exec, startingTasksOn launcher: Exec, waiterFirst: Bool) async {
        switch self {
        case .gate:
            let gate = Gate(context: context)
            let wait = { @Sendable in await gate.wait() }
            let signal = { @Sendable in await gate.signal() }
            let tasks =
                waiterFirst
                ? [launcher.task(wait), launcher.task(signal)] : [launcher.task(signal), launcher.task(wait)]
            for task in tasks { await task.value }
        case .semaphore:
            let semaphore = CountingSemaphore(context: context)
            var tasks: [Task<Void, Never>] = []
            for _ in 0..<3 {
                let wait = launcher.task { await semaphore.wait() }
                let signal = launcher.task { await semaphore.signal() }
                tasks += waiterFirst ? [wait, signal] : [signal, wait]
            }
            for task in tasks { await task.value }
        case .stream:
            let mailbox = Mailbox(context: context)
            let receiver = launcher.task { await mailbox.receive(count: 3) }
            let sender = launcher.task {
                for value in 1...3 { await mailbox.send(value) }
            }
            await sender.value
            let received = await receiver.value
            precondition(received == [1, 2, 3], "the stream delivered \(received)")
        case .timer:
            let alarm = Alarm(context: context)
            await launcher.task { await alarm.waitForTimer() }.value
        }
    }
}

/// Opens once; `wait()` returns once it is open.
private actor Gate {
    let context: Exec
    nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedSerialExecutor }
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(context: Exec) { self.context = context }

    func wait() async {
        if !isOpen { await withCheckedContinuation { waiters.append($0) } }
    }

    func signal() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}

/// `Gate` on main-actor state.
@MainActor private final class MainActorGate: Sendable {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    nonisolated init() {}

    func wait() async {
        if !isOpen { await withCheckedContinuation { waiters.append($0) } }
    }

    func signal() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}

/// A counting semaphore: `wait()` takes a permit or waits for one, `signal()` gives one (to the first waiter).
private actor CountingSemaphore {
    let context: Exec
    nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedSerialExecutor }
    private var permits = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(context: Exec) { self.context = context }

    func wait() async {
        if permits > 0 {
            permits -= 1
        } else {
            await withCheckedContinuation { waiters.append($0) }
        }
    }

    func signal() {
        if waiters.isEmpty {
            permits += 1
        } else {
            waiters.removeFirst().resume()
        }
    }
}

/// An `AsyncStream` fed and drained through the actor.
private actor Mailbox {
    let context: Exec
    nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedSerialExecutor }
    private let stream: AsyncStream<Int>
    private let input: AsyncStream<Int>.Continuation

    init(context: Exec) {
        self.context = context
        (stream, input) = AsyncStream.makeStream()
    }

    func send(_ value: Int) { input.yield(value) }

    func receive(count: Int) async -> [Int] {
        var received: [Int] = []
        for await value in stream {
            received.append(value)
            if received.count == count { break }
        }
        return received
    }
}

/// Starts a timer on its own context, then waits for it unless it has already fired; the handler, run in the same
/// context, resumes the waiter through the actor's isolation.
private actor Alarm {
    let context: Exec
    nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedSerialExecutor }
    private var hasFired = false
    private var waiter: CheckedContinuation<Void, Never>?
    private var timer: (any Lifetime)?

    init(context: Exec) { self.context = context }

    func waitForTimer() async {
        timer = context.singleTimer(interval: .zero) { [self] in
            // Timer handlers run in the context, which is this actor's executor.
            assumeIsolated { $0.fire() }
        }
        // Holding the context a moment lets the firing queue up behind this job: a hop at the `await` below would then
        // let it run first, with no waiter stored yet.
        usleep(300)
        if !hasFired { await withCheckedContinuation { waiter = $0 } }
    }

    private func fire() {
        hasFired = true
        waiter?.resume()
        waiter = nil
    }
}

/// A user's own serial context that hands out a private queue's serial executor, as *Writing your own context* shows:
/// its tasks go through ExecKit's default task executor (the context's `invokeAsync`), its actor through the queue's.
package struct UserContextWithExecutor: ExecutionContext {
    let queue = DispatchQueue(label: "ExecTestSupport.userContextWithExecutor")

    package init() {}

    package var type: ExecutionType { .serialAsync }
    package var isCurrent: Bool { Exec.queue(queue, .serialAsync).isCurrent }
    package var unownedSerialExecutor: UnownedSerialExecutor { Exec.queue(queue, .serialAsync).unownedSerialExecutor }
    package func invoke(_ execute: @escaping @Sendable () -> Void) { queue.async(execute: execute) }
    package func invokeAsync(_ execute: @escaping @Sendable () -> Void) { queue.async(execute: execute) }
    package func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { queue.sync(execute: execute) }
}

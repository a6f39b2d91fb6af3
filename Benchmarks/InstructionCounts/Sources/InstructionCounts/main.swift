// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// Runs one operation N times on one context, for `count.sh`, which runs it under callgrind at N and 2N and prints
// the difference divided by N: the instructions of one operation, without start-up and tear-down.
//
// Usage: InstructionCounts OPERATION CONTEXT N [SIZE]
//   OPERATION: invokeWithValue, callWithValue (its peer, a plain call) | invokeClosure | rawTimer (the peer of
//              timerScheduleCancel, any CONTEXT) | invokeAll and invokeAsync (both wait for every block) |
//              dispatchAsync (the peer: `DispatchQueue.global(qos: .utility).async`, waits; any CONTEXT) |
//              invokeSync, dispatchSync (its peer: `sync` on a private queue; any CONTEXT) | isCurrent | timestamp | timerScheduleCancel | mutexSync, rawMutex (any CONTEXT)
//   timerFire: N one-shot timers due at once on CONTEXT, each handler run (use utility: a concurrent engine) |
//              rawTimerFire: the peer, one DispatchSourceTimer per timer on the utility queue (any CONTEXT)
//   hubPost, hubPost100 (CONTEXT ignored): a NotificationHub post to 1 or 100 `.direct` observers, each adding the
//              payload to a counter | notificationCenterPost, notificationCenterPost100: the peer, Foundation's
//              `NotificationCenter.post` to block observers with `queue: nil` | hubAddCancel, notificationCenterAddRemove:
//              adding an observer and ending its observation
//   timerPending, rawTimerPending (SIZE timers pending at random deadlines an hour or two away, set up before the
//              loop; each of the N operations schedules and cancels one more at a random deadline in the same range):
//              the scaling curve of timerScheduleCancel and its peer
//   hubPostObservers, notificationCenterPostObservers (CONTEXT ignored): a post to SIZE observers, the scaling curve
//              of hubPost and its peer
//   actorCall: a task on the global executor calls an actor on CONTEXT's serial executor N times (CONTEXT:
//              syncQueue; `main` and `asyncQueue` would wait forever: the driver waits on thread 1, inside asyncQueue
//              for the latter) | queueActorCall,
//              defaultActorCall (CONTEXT ignored): the peers, an actor on the smallest hand-written executor on a
//              private queue (one `async` per job), and a default actor
//   taskStart: a task on the global executor starts N tasks on CONTEXT's task executor, one after another, and awaits
//              each one's value (CONTEXT: direct, default or utility) | handWrittenTaskStart: the peer, the same tasks
//              on the smallest hand-written TaskExecutor on the same global queue (one `async` per job)
//   launcherTaskStart: a task on the global executor starts N tasks with `CONTEXT.task { }`, one after another, and
//              awaits each one's value (CONTEXT: mainDispatched for `.main`, or any that runs tasks) |
//              launcherDefaultActorCall: one task started with `CONTEXT.task { }` calls a default actor N times |
//              mainActorTaskStart, mainActorDefaultActorCall (CONTEXT: mainDispatched): their peers on
//              `Task { @MainActor in }`
//   serialTaskQueue: a task on the global executor submits N operations to a SerialTaskQueue on CONTEXT (direct,
//              default or utility) and awaits the last | serialTaskQueueIsolated: the same, each operation isolated to
//              a default actor | streamFIFOQueue: the peer, one task draining an AsyncStream of N operations (no task
//              per operation; CONTEXT ignored)
//   coordinator (CONTEXT ignored): N one-shot timers at pseudo-random times within an hour on a TestCoordinator
//              (call sites off), then `advance(by: .seconds(3_600))` runs them all, as ExecTestingBenchmarks does |
//              coordinatorCallSites: the same with call sites recorded (the coordinator's default) | binaryHeap: the
//              floor, the same blocks through a lock and an array-backed binary heap of closures
//   callSitesNewPaths (CONTEXT ignored): N blocks scheduled on a TestCoordinator's global context (call sites
//              recorded), each along a call path of its own: twelve nested calls, each to one of two functions, chosen
//              by the bits of the block's index (at most 4,096 paths) | callSitesOnePath: the same calls, all along the
//              first path | callSitesOff: the same as callSitesOnePath with call sites off, the floor of both |
//              callSitesAsync: a task on a TestCoordinator (call sites recorded) awaits N `global.perform { }`, each
//              scheduled from async code along one path | callSitesAsyncOff: the same with call sites off |
//              callSitesInTask: callSitesOnePath from inside a task, as an async test schedules
//   hubPostLongName: hubPost with a name of 10,000 characters | hubPostAmongOthers: hubPost with 1,000 observers of
//              other names besides (CONTEXT ignored)
//   queueIsCurrent: ExecDispatch's `DispatchQueue.isCurrent` from outside a private queue | getSpecificTwice: its
//              peer, `DispatchQueue.getSpecific(key:)` and the queue's `getSpecific(key:)` (CONTEXT ignored)
//   coordinatorPending: SIZE timers pending an hour or two away on a TestCoordinator, then N blocks each scheduled
//              and run by `runUntilIdle` | coordinatorPeriodic: N firings of one 100 ms periodic timer in one
//              `advance` | coordinatorTaskStart: taskStart on a TestCoordinator's task executor (CONTEXT ignored) |
//              capturedTaskStart: the same with plain `Task {}` inside `withTasksCaptured` (CONTEXT ignored)
//   perform: a task awaits N `context.perform { }` calls, each a closure literal capturing a local
//   explore: N runs of `TestCoordinator.explore(.random)` of SIZE blocks on two serial queues (CONTEXT ignored) |
//              explorePCT: the same with `.pct(expectedSteps: SIZE)` | explorePlain: the same program on N plain
//              coordinators (the fixed order), their peer
//   cancellableTaskStart: taskStart through a `CancellableLauncher` around CONTEXT | throwingOnlyTaskStart: taskStart
//              through a launcher that implements only the throwing `task(priority:_:)` around CONTEXT, so that the
//              non-throwing form is the protocol's default (a second task)
//   serialTaskQueueCancelAll (CONTEXT ignored): N `cancelAll()` calls on a SerialTaskQueue of 10 unfinished operations
//              (on a TestCoordinator's context, never run)
//   onMainActor: N calls of an `Exec.onMainActor` handler (use main: thread 1, the main queue)
//   invokeAfter: N `context.invoke(after:)` an hour away, never run | timerKeep: the same as kept one-shot timers
//   invokeGroup, invokeAsyncGroup: `invoke(group:)` and `invokeAsync(group:)` of `completion`, waited for with the
//              group | invokeAsyncAll: `invokeAsync(completion)` waited for, the peer of invokeAsyncGroup
//   onceCompletion (CONTEXT ignored): an `OnceCompletion` without timeout made and completed
//   coordinatorSerialQueue (CONTEXT ignored): a TestCoordinator's `serialQueue(named:)` made and dropped
//   CONTEXT:   direct | default | main (thread 1, which libdispatch counts as the main queue) | mainElsewhere (a global-queue
//              thread) | utility | asyncQueue (from inside it) | syncQueue | serialized (`Exec.direct.serialized()`,
//              a MutexContext) | directAfterOverride, mainAfterOverride (.direct or .main, once a TestCoordinator's
//              `overridingSharedContexts` has run) | mainOrdered (thread 1) | mainOrderedElsewhere (a global-queue
//              thread: every block queued, none run) | forwardedUtility (a custom context forwarding to .utility that
//              implements no `invoke(after:)`, so the protocol's default runs) | mainDispatched (.main from a global-queue
//              thread, with the main queue drained by RunLoop.main on thread 1: for tasks started on .main)

import ExecKit
import ExecNotifications
import ExecTesting
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An actor that runs on a given executor (an ExecKit context's).
actor ContextActor {
    private let executor: UnownedSerialExecutor
    private(set) var count = 0
    init(executor: UnownedSerialExecutor) { self.executor = executor }
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor }
    func increment() { count &+= 1 }
}

/// The smallest serial executor on a private queue: each job is one `async`.
final class MinimalQueueExecutor: SerialExecutor {
    let queue = DispatchQueue(label: "MinimalQueueExecutor")
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }
}

/// The smallest task executor on a global queue: each job is one `async`. The peer of ExecKit's task executors.
final class MinimalTaskExecutor: TaskExecutor {
    let queue: DispatchQueue
    init(queue: DispatchQueue) { self.queue = queue }
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// An actor on `MinimalQueueExecutor`: the peer of `ContextActor`, without ExecKit.
actor QueueActor {
    private let executor = MinimalQueueExecutor()
    private(set) var count = 0
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    func increment() { count &+= 1 }
}

/// The peer of `ContextActor`: a default actor.
actor DefaultActor {
    private(set) var count = 0
    func increment() { count &+= 1 }
}

/// A launcher that implements only the throwing `task(priority:_:)`: its non-throwing form is the protocol's default.
struct ThrowingOnlyLauncher: TaskLauncher {
    let context: Exec
    func task<Success: Sendable>(
        priority: TaskPriority?,
        _ operation: sending nonisolated(nonsending) @escaping () async throws -> Success
    ) -> Task<Success, any Error> {
        context.task(priority: priority, operation)
    }
}

/// A custom context that forwards to `base` and implements no `invoke(after:)`: the protocol's default, a one-shot
/// timer that keeps itself alive, runs instead of `Exec`'s `asyncAfter`.
struct ForwardingContext: ExecutionContext {
    let base: Exec
    var type: ExecutionType { base.type }
    func invoke(_ execute: @escaping @Sendable () -> Void) { base.invoke(execute) }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { base.invokeAsync(execute) }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { base.invokeAndWait(execute) }
    func singleTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void) -> any Lifetime {
        base.singleTimer(interval: interval, leeway: leeway, handler: handler)
    }
}

/// Keeps a value alive in the optimizer's eyes.
@inline(never) func consume(_ value: Int) { if value == -1 { print(value) } }

/// What the blocks change. Unchecked exclusivity: a runtime access check per increment would swamp the paths measured.
final class Counter: @unchecked Sendable { @exclusivity(unchecked) var value = 0 }

let arguments = CommandLine.arguments
guard arguments.count == 4 || arguments.count == 5, let count = Int(arguments[3]),
    let size = arguments.count == 5 ? Int(arguments[4]) : 0, size >= 0
else {
    print("usage: InstructionCounts OPERATION CONTEXT N [SIZE]")
    exit(2)
}
let operation = arguments[1]
let counter = Counter()
let completed = Atomic<Int>(0)
let allCompleted = DispatchSemaphore(value: 0)
let handler: @Sendable (Int) -> Void = { counter.value &+= $0 }
let objectHandler: @Sendable (Counter) -> Void = { $0.value &+= 1 }
let resultHandler: @Sendable (Result<Int, any Error>) -> Void = {
    if case .success(let value) = $0 { counter.value &+= value }
}
let resultHandlerOfOutcome: @Sendable (OnceCompletion<Int>.Outcome) -> Void = {
    if case .success(let value) = $0 { counter.value &+= value }
}
let completion: @Sendable () -> Void = {
    if completed.add(1, ordering: .relaxed).newValue == count { allCompleted.signal() }
}

/// The delivery step of a callback API, as README shows it: the completion is a parameter, a closure value.
@Sendable @inline(never) func deliver(
    _ result: Result<Int, any Error>, to completion: @escaping @Sendable (Result<Int, any Error>) -> Void,
    in context: Exec
) {
    context.invoke(completion, with: result)
}

extension NotificationName where Payload == Int {
    static let tick = NotificationName("InstructionCounts.tick")
    static let longTick = NotificationName(String(repeating: "InstructionCounts.longTick.", count: 385))
}

// Loops in functions of their own: inside `run`, which is large, the optimizer declines to inline what it would
// inline in a caller of ordinary size.

@Sendable @inline(never) func mutexSyncLoop() {
    let mutex = PThreadMutex()
    for _ in 0..<count { mutex.sync { counter.value &+= 1 } }
}

@Sendable @inline(never) func rawMutexLoop() {
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
    for _ in 0..<count {
        pthread_mutex_lock(mutex)
        counter.value &+= 1
        pthread_mutex_unlock(mutex)
    }
}

/// Pseudo-random delays an hour or two away, the same sequence in every run (callgrind's N and 2N runs must set up
/// the same pending timers for their difference to be the loop's cost alone).
struct Delays: IteratorProtocol {
    private var state: UInt64 = 1
    mutating func next() -> Duration? {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return .seconds(3_600) + .nanoseconds(Int64((state >> 11) % 3_600_000_000_000))
    }
}

/// `size` timers pending on `context`, then `count` one-shot timers scheduled and cancelled among them.
@Sendable @inline(never) func timerPendingLoop(_ context: Exec) {
    var delays = Delays()
    let pending = (0..<size).map { _ in context.singleTimer(interval: delays.next()!) {} }
    for _ in 0..<count { context.singleTimer(interval: delays.next()!) {}.cancel() }
    withExtendedLifetime(pending) {}
}

/// The peer of `timerPendingLoop`: `size` DispatchSourceTimers pending, then `count` made, armed and cancelled.
@Sendable @inline(never) func rawTimerPendingLoop() {
    let queue = DispatchQueue.global(qos: .default)
    var delays = Delays()
    func makeSource() -> any DispatchSourceTimer {
        let source = DispatchSource.makeTimerSource(queue: queue)
        source.setEventHandler {}
        source.schedule(
            deadline: .now() + .nanoseconds(Int(delays.next()!.wholeNanoseconds)), leeway: .nanoseconds(0))
        source.resume()
        return source
    }
    let pending = (0..<size).map { _ in makeSource() }
    for _ in 0..<count { makeSource().cancel() }
    pending.forEach { $0.cancel() }
}

extension Duration {
    fileprivate var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

@Sendable @inline(never) func run(_ context: Exec) {
    switch operation {
    case "invokeWithValue": for index in 0..<count { context.invoke(handler, with: index) }
    case "invokeWithObject": for _ in 0..<count { context.invoke(objectHandler, with: counter) }
    case "invokeWithResult": for index in 0..<count { context.invoke(resultHandler, with: .success(index)) }
    case "switchWithValue":  // the documented way round the thunk: switch on .direct, invoke(_:with:) otherwise
        for index in 0..<count {
            switch context {
            case .direct: handler(index)
            default: context.invoke(handler, with: index)
            }
        }
    case "deliverResult":  // a callback API's last line: its completion parameter, called through the context
        for index in 0..<count { deliver(.success(index), to: resultHandler, in: context) }
    case "invokeWithLiteral":  // the handler a closure literal, as the allocation thresholds measure it
        for index in 0..<count { context.invoke({ (value: Int) in counter.value &+= value }, with: index) }
    case "callWithValue": for index in 0..<count { handler(index) }  // the peer of invokeWithValue: a plain call
    case "rawTimer":  // the peer of timerScheduleCancel: a DispatchSourceTimer made, armed and cancelled
        let queue = DispatchQueue.global(qos: .default)
        for _ in 0..<count {
            let source = DispatchSource.makeTimerSource(queue: queue)
            source.setEventHandler {}
            source.schedule(deadline: .now() + .seconds(3_600), leeway: .nanoseconds(0))
            source.resume()
            source.cancel()
        }
    case "timerFire":  // N one-shot timers due at once on CONTEXT, waited for until every handler has run
        let timers = (0..<count).map { _ in context.singleTimer(interval: .zero, leeway: .zero, handler: completion) }
        allCompleted.wait()
        withExtendedLifetime(timers) {}
    case "rawTimerFire":  // the peer of timerFire: one DispatchSourceTimer per timer on the utility queue, any CONTEXT
        let queue = DispatchQueue.global(qos: .utility)
        let sources = (0..<count).map { _ in
            let source = DispatchSource.makeTimerSource(queue: queue)
            source.setEventHandler(handler: completion)
            source.schedule(deadline: .now(), leeway: .nanoseconds(0))
            source.resume()
            return source
        }
        allCompleted.wait()
        sources.forEach { $0.cancel() }
    case "invokeClosure": for _ in 0..<count { context.invoke { counter.value &+= 1 } }
    case "invokeAsync":
        for _ in 0..<count { context.invokeAsync(completion) }
        allCompleted.wait()
    case "invokeAll":
        for _ in 0..<count { context.invoke(completion) }
        allCompleted.wait()
    case "dispatchAsync":  // the peer: a closure literal given to a cached global queue's `async`
        let queue = DispatchQueue.global(qos: .utility)
        for _ in 0..<count { queue.async { completion() } }
        allCompleted.wait()
    case "invokeSync": for _ in 0..<count { context.invokeSync { counter.value &+= 1 } }
    case "dispatchSync":  // the peer of syncQueue().invokeSync: `sync` on a private serial queue, any CONTEXT
        let queue = DispatchQueue(label: "peer")
        for _ in 0..<count { queue.sync { counter.value &+= 1 } }
    case "mutexSync": mutexSyncLoop()  // PThreadMutex, any CONTEXT
    case "rawMutex": rawMutexLoop()  // the peer: pthread_mutex_lock/unlock on a mutex allocated once, any CONTEXT
    case "isCurrent": for _ in 0..<count { consume(context.isCurrent ? 1 : 0) }
    case "queueIsCurrent", "getSpecificTwice":  // ExecDispatch's DispatchQueue.isCurrent, from outside the queue,
        // and its peer: two look-ups of a queue-specific key, the current queue's and a given queue's (any CONTEXT)
        let queue = DispatchQueue(label: "InstructionCounts.queue")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 1)
        consume(queue.isCurrent ? 1 : 0)  // the first call marks the queue; the loop measures the later ones
        if operation == "queueIsCurrent" {
            for _ in 0..<count { consume(queue.isCurrent ? 1 : 0) }
        } else {
            for _ in 0..<count {
                consume((DispatchQueue.getSpecific(key: key) ?? 0) &+ (queue.getSpecific(key: key) ?? 0))
            }
        }
    case "timestamp": for _ in 0..<count { consume(Int(truncatingIfNeeded: context.timestamp().uptimeNanoseconds)) }
    case "timerScheduleCancel":
        for _ in 0..<count { context.singleTimer(interval: .seconds(3_600)) {}.cancel() }
    case "timerPending": timerPendingLoop(context)
    case "rawTimerPending": rawTimerPendingLoop()  // any CONTEXT
    case "hubPost", "hubPost100", "hubPostObservers":
        let hub = NotificationHub()
        let observers = operation == "hubPost" ? 1 : operation == "hubPost100" ? 100 : size
        let observations = (0..<observers).map { _ in hub.addObserver(for: .tick) { counter.value &+= $0 } }
        for index in 0..<count { hub.post(.tick, payload: index) }
        withExtendedLifetime(observations) {}
    case "hubPostLongName":  // hubPost with a 10,000-character name: a post does no string work
        let hub = NotificationHub()
        let observation = hub.addObserver(for: .longTick) { counter.value &+= $0 }
        for index in 0..<count { hub.post(.longTick, payload: index) }
        withExtendedLifetime(observation) {}
    case "hubPostAmongOthers":  // hubPost with 1,000 observers of 1,000 other names beside the one matching
        let hub = NotificationHub()
        let others = (0..<1_000).map { index in
            hub.addObserver(for: NotificationName<Int>("InstructionCounts.other.\(index)")) { counter.value &+= $0 }
        }
        let observation = hub.addObserver(for: .tick) { counter.value &+= $0 }
        for index in 0..<count { hub.post(.tick, payload: index) }
        withExtendedLifetime((others, observation)) {}
    case "notificationCenterPost", "notificationCenterPost100", "notificationCenterPostObservers":
        let center = NotificationCenter()
        let name = Notification.Name("InstructionCounts.tick")
        let observers =
            operation == "notificationCenterPost" ? 1 : operation == "notificationCenterPost100" ? 100 : size
        let tokens = (0..<observers).map { _ in
            center.addObserver(forName: name, object: nil, queue: nil) { _ in counter.value &+= 1 }
        }
        for _ in 0..<count { center.post(name: name, object: nil) }
        tokens.forEach(center.removeObserver)
    case "hubAddCancel":
        let hub = NotificationHub()
        for _ in 0..<count { hub.addObserver(for: .tick) { counter.value &+= $0 }.cancel() }
    case "notificationCenterAddRemove":
        let center = NotificationCenter()
        let name = Notification.Name("InstructionCounts.tick")
        for _ in 0..<count {
            center.removeObserver(
                center.addObserver(forName: name, object: nil, queue: nil) { _ in counter.value &+= 1 })
        }
    case "actorCall", "defaultActorCall", "queueActorCall":  // a task calling an actor N times (see the usage)
        let finished = DispatchSemaphore(value: 0)
        let executor = operation == "actorCall" ? context.unownedSerialExecutor : nil
        Task {
            if operation == "queueActorCall" {
                let actor = QueueActor()
                for _ in 0..<count { await actor.increment() }
                counter.value &+= await actor.count
            } else if let executor {
                let actor = ContextActor(executor: executor)
                for _ in 0..<count { await actor.increment() }
                counter.value &+= await actor.count
            } else {
                let actor = DefaultActor()
                for _ in 0..<count { await actor.increment() }
                counter.value &+= await actor.count
            }
            finished.signal()
        }
        finished.wait()
    case "taskStart", "handWrittenTaskStart":  // N tasks started on a task executor, each awaited (see the usage)
        let finished = DispatchSemaphore(value: 0)
        let executor: any TaskExecutor =
            operation == "taskStart"
            ? context.taskExecutor
            : MinimalTaskExecutor(queue: { if case .utility = context { .global(qos: .utility) } else { .global() } }())
        Task {
            var total = 0
            for _ in 0..<count { total &+= await Task(executorPreference: executor) { 1 }.value }
            counter.value &+= total
            finished.signal()
        }
        finished.wait()
    case "serialTaskQueue", "serialTaskQueueIsolated", "streamFIFOQueue":  // N ordered operations (see the usage)
        let finished = DispatchSemaphore(value: 0)
        Task {
            switch operation {
            case "serialTaskQueue":
                let queue = SerialTaskQueue(context: context)
                var last: Task<Void, Never>?
                for _ in 0..<count { last = queue.enqueue { counter.value &+= 1 } }
                await last?.value
            case "serialTaskQueueIsolated":
                let queue = SerialTaskQueue(context: context)
                let actor = DefaultActor()
                var last: Task<Void, Never>?
                for _ in 0..<count { last = queue.enqueue(isolatedTo: actor) { actor in actor.increment() } }
                await last?.value
                counter.value &+= await actor.count
            default:
                let (stream, continuation) = AsyncStream.makeStream(of: (@Sendable () async -> Void).self)
                let consumer = Task { for await operation in stream { await operation() } }
                for _ in 0..<count { continuation.yield { counter.value &+= 1 } }
                continuation.finish()
                await consumer.value
            }
            finished.signal()
        }
        finished.wait()
    case "coordinator", "coordinatorCallSites":
        let coordinator = TestCoordinator(recordsCallSites: operation == "coordinatorCallSites")
        var state: UInt64 = 1
        var timers: [any Lifetime] = []
        timers.reserveCapacity(count)
        for _ in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let delay = Int64((state >> 11) % 3_600_000_000_000)
            timers.append(coordinator.global.singleTimer(interval: .nanoseconds(delay)) { counter.value &+= 1 })
        }
        coordinator.advance(by: .seconds(3_600))
        precondition(counter.value == count, "every timer fired")
        withExtendedLifetime(timers) {}
    case "callSitesNewPaths", "callSitesOnePath", "callSitesOff":
        precondition(operation != "callSitesNewPaths" || count <= 4_096, "callSitesNewPaths has 4,096 paths")
        let coordinator = TestCoordinator(recordsCallSites: operation != "callSitesOff")
        for index in 0..<count {
            CallPathFan.schedule(on: coordinator, along: operation == "callSitesNewPaths" ? index : 0, levels: 12)
        }
        coordinator.runUntilIdle()
        precondition(counter.value == count, "every block ran")
    case "callSitesInTask":
        let coordinator = TestCoordinator()
        let finished = DispatchSemaphore(value: 0)
        Task {
            for _ in 0..<count { CallPathFan.schedule(on: coordinator, along: 0, levels: 12) }
            finished.signal()
        }
        finished.wait()
        coordinator.runUntilIdle()
        precondition(counter.value == count, "every block ran")
    case "callSitesAsync", "callSitesAsyncOff":
        let coordinator = TestCoordinator(recordsCallSites: operation == "callSitesAsync")
        let global = coordinator.global
        coordinator.task {
            var total = 0
            for _ in 0..<count { total &+= await global.perform { 1 } }
            counter.value &+= total
        }
        coordinator.runUntilIdle()
        precondition(counter.value == count, "every perform ran")
    case "coordinatorPending":  // SIZE timers pending on a TestCoordinator, then N scheduled and run one at a time
        let coordinator = TestCoordinator(recordsCallSites: false)
        var delays = Delays()
        let pending = (0..<size).map { _ in coordinator.global.singleTimer(interval: delays.next()!) {} }
        for _ in 0..<count {
            coordinator.global.invoke { counter.value &+= 1 }
            coordinator.runUntilIdle()
        }
        precondition(counter.value == count, "every block ran")
        withExtendedLifetime(pending) {}
    case "coordinatorPeriodic":  // N firings of one periodic timer of 100 ms, run by one advance
        let coordinator = TestCoordinator(recordsCallSites: false)
        let timer = coordinator.global.periodicTimer(interval: .milliseconds(100)) { counter.value &+= 1 }
        coordinator.advance(by: .milliseconds(100) * count)
        precondition(counter.value == count, "every firing ran")
        withExtendedLifetime(timer) {}
    case "coordinatorTaskStart":  // taskStart on a TestCoordinator's task executor, the jobs run by runUntilIdle
        let coordinator = TestCoordinator(recordsCallSites: false)
        let executor = coordinator.taskExecutor
        Task(executorPreference: executor) {
            var total = 0
            for _ in 0..<count { total &+= await Task(executorPreference: executor) { 1 }.value }
            counter.value &+= total
        }
        coordinator.runUntilIdle()
        precondition(counter.value == count, "every task ran")
    case "perform":  // a task awaits N `perform` calls on CONTEXT, each a closure literal capturing a local
        let finished = DispatchSemaphore(value: 0)
        Task {
            var total = 0
            for index in 0..<count { total &+= await context.perform { index &+ 1 } }
            counter.value &+= total
            finished.signal()
        }
        finished.wait()
    case "explore", "explorePCT", "explorePlain":
        // N exploration runs (random order; PCT) of SIZE blocks, half on each of two serial queues; explorePlain: the
        // same program on N plain coordinators (the fixed order), the peer of both
        let program: (TestCoordinator) -> Void = { coordinator in
            let queues = [coordinator.serialQueue(named: "a"), coordinator.serialQueue(named: "b")]
            for step in 0..<size { queues[step % 2].invoke { counter.value &+= 1 } }
            coordinator.runUntilIdle()
        }
        switch operation {
        case "explorePlain":
            for _ in 0..<count { program(TestCoordinator(recordsCallSites: false)) }
        default:
            let strategy: ExplorationStrategy = operation == "explore" ? .random : .pct(expectedSteps: max(size, 1))
            let report = TestCoordinator.explore(strategy, iterations: count, recordsCallSites: false, program)
            precondition(report.failure == nil, "every run passed")
        }
        precondition(counter.value == count * size, "every block ran")
    case "cancellableTaskStart", "throwingOnlyTaskStart":  // taskStart through a CancellableLauncher, or through a
        // launcher with only the throwing form (the non-throwing default's second task)
        let finished = DispatchSemaphore(value: 0)
        let launcher: any TaskLauncher =
            operation == "cancellableTaskStart" ? CancellableLauncher(context) : ThrowingOnlyLauncher(context: context)
        Task {
            var total = 0
            for _ in 0..<count { total &+= await launcher.task { () async -> Int in 1 }.value }
            counter.value &+= total
            finished.signal()
        }
        finished.wait()
    case "serialTaskQueueCancelAll":  // cancelAll on a queue of 10 unfinished operations (a coordinator's, never run)
        let coordinator = TestCoordinator(recordsCallSites: false)
        let queue = SerialTaskQueue(context: coordinator.global)
        let tasks = (0..<10).map { _ in queue.enqueue { counter.value &+= 1 } }
        for _ in 0..<count { queue.cancelAll() }
        withExtendedLifetime((coordinator, tasks)) {}
    case "onMainActor":  // an Exec.onMainActor handler called N times (on the main queue with CONTEXT main)
        let wrapped = Exec.onMainActor { (value: Int) in counter.value &+= value }
        for index in 0..<count { wrapped(index) }
    case "invokeAfter":  // N blocks an hour away, never run
        for _ in 0..<count { context.invoke(after: .seconds(3_600)) {} }
    case "timerKeep":  // N one-shot timers an hour away, kept
        var timers: [any Lifetime] = []
        timers.reserveCapacity(count)
        for _ in 0..<count { timers.append(context.singleTimer(interval: .seconds(3_600)) {}) }
        withExtendedLifetime(timers) {}
    case "invokeGroup", "invokeAsyncGroup", "invokeAsyncAll":  // waited for with a group, or with `completion`
        let group = DispatchGroup()
        switch operation {
        case "invokeGroup": for _ in 0..<count { context.invoke(group: group, completion) }
        case "invokeAsyncGroup": for _ in 0..<count { context.invokeAsync(group: group, completion) }
        default: for _ in 0..<count { context.invokeAsync(completion) }
        }
        if operation == "invokeAsyncAll" { allCompleted.wait() } else { group.wait() }
    case "onceCompletion":  // an OnceCompletion without timeout, made and completed
        for index in 0..<count {
            OnceCompletion<Int>(handler: resultHandlerOfOutcome).complete(index)
        }
    case "coordinatorSerialQueue":  // a TestCoordinator's serial queue, made and dropped
        let coordinator = TestCoordinator(recordsCallSites: false)
        for _ in 0..<count { consume(coordinator.serialQueue(named: "queue").isCurrent ? 1 : 0) }
    case "binaryHeap":  // the floor of coordinator: a lock and an array-backed binary heap of closures
        let heap = PlainHeapCoordinator()
        var state: UInt64 = 1
        for _ in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            heap.schedule(after: (state >> 11) % 3_600_000_000_000) { counter.value &+= 1 }
        }
        heap.advance(by: 3_600_000_000_000)
        precondition(counter.value == count, "every block ran")
    default:
        guard runTaskStartRows(operation, context) else {
            print("unknown operation \(operation)")
            exit(2)
        }
    }
    consume(counter.value)
}

switch arguments[2] {
case "direct": run(.direct)
case "main":
    precondition(DispatchQueue.isMainQueueCurrent, "thread 1, outside any block, counts as the main queue")
    run(.main)
case "mainElsewhere":
    DispatchQueue.global().async {
        run(.main)
        exit(0)
    }
    while true { sleep(60) }
case "mainDispatched":  // .main driven from a global-queue thread while a run loop drains the main queue
    DispatchQueue.global().async {
        run(.main)
        exit(0)
    }
    RunLoop.main.run()  // drains the main queue on thread 1 until a block exits (valgrind cannot follow dispatchMain())
case "directAfterOverride", "mainAfterOverride":  // .direct or .main once a virtual-time override has been in force
    TestCoordinator().overridingSharedContexts {}
    run(arguments[2] == "directAfterOverride" ? .direct : .main)
case "mainOrdered":
    precondition(DispatchQueue.isMainQueueCurrent, "thread 1, outside any block, counts as the main queue")
    run(.mainOrdered)
case "mainOrderedElsewhere":  // every block queued on the main queue, which thread 1 never drains
    DispatchQueue.global().async {
        run(.mainOrdered)
        exit(0)
    }
    while true { sleep(60) }
case "forwardedUtility": run(.custom(ForwardingContext(base: .utility)))
case "default": run(.default)
case "utility": run(.utility)
case "asyncQueue":
    let queue = Exec.asyncQueue()
    queue.invokeSync { run(queue) }
case "syncQueue": run(.syncQueue())
case "serialized": run(Exec.direct.serialized())  // a MutexContext
default:
    print("unknown context \(arguments[2])")
    exit(2)
}
exit(0)

/// Issue #40's rows (and issue #41's), kept out of `run`: adding cases there changed how the optimizer inlined the `invoke` rows' loops
/// (`.direct.invoke(_:with:)` read 31 instructions instead of 15). Returns whether `operation` was one of them.
@Sendable @inline(never) func runTaskStartRows(_ operation: String, _ context: Exec) -> Bool {
    switch operation {
    case "launcherTaskStart", "mainActorTaskStart":  // N tasks started, each awaited (issue #40: .main's start cost)
        let finished = DispatchSemaphore(value: 0)
        Task {
            var total = 0
            for _ in 0..<count {
                total &+=
                    operation == "launcherTaskStart"
                    ? await context.task { 1 }.value : await Task { @MainActor in 1 }.value
            }
            counter.value &+= total
            finished.signal()
        }
        finished.wait()
    case "launcherDefaultActorCall", "mainActorDefaultActorCall":  // a task calls a default actor N times (issue #40)
        // The calls are written out in each task's own body (a closure shared by both would run on the global
        // executor, not where each task runs).
        let finished = DispatchSemaphore(value: 0)
        let actor = DefaultActor()
        if operation == "launcherDefaultActorCall" {
            context.task {
                for _ in 0..<count { await actor.increment() }
                finished.signal()
            }
        } else {
            Task { @MainActor in
                for _ in 0..<count { await actor.increment() }
                finished.signal()
            }
        }
        finished.wait()
    case "capturedTaskStart":  // coordinatorTaskStart's program with plain `Task {}`, captured by withTasksCaptured (issue #41)
        let coordinator = TestCoordinator(recordsCallSites: false)
        coordinator.withTasksCaptured {
            Task {
                var total = 0
                for _ in 0..<count { total &+= await Task { 1 }.value }
                counter.value &+= total
            }
            coordinator.runUntilIdle()
        }
        precondition(counter.value == count, "every task ran")
    default:
        return false
    }
    return true
}

/// The floor of the `coordinator` rows: blocks in an array-backed binary heap of structs, under one lock, run in
/// deadline order (ties in scheduling order). No class per entry, no slot table, no cancellation.
final class PlainHeapCoordinator: @unchecked Sendable {
    // Unchecked: every access to `heap`, `now` and `sequence` is under `lock`.
    private struct Entry {
        let deadline: UInt64
        let sequence: UInt64
        let block: @Sendable () -> Void

        func precedes(_ other: Entry) -> Bool {
            deadline < other.deadline || (deadline == other.deadline && sequence < other.sequence)
        }
    }

    private let lock = PThreadMutex()
    private var heap: [Entry] = []
    private var now: UInt64 = 0
    private var sequence: UInt64 = 0

    func schedule(after delay: UInt64, _ block: @escaping @Sendable () -> Void) {
        lock.sync(execute: {
            heap.append(Entry(deadline: now + delay, sequence: sequence, block: block))
            sequence += 1
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[child].precedes(heap[parent]) else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        })
    }

    func advance(by duration: UInt64) {
        let target = lock.sync(execute: { now + duration })
        while let block = lock.sync(execute: { () -> (@Sendable () -> Void)? in
            guard let first = heap.first, first.deadline <= target else { return nil }
            now = first.deadline
            heap.swapAt(0, heap.count - 1)
            let taken = heap.removeLast()
            var parent = 0
            while true {
                let left = 2 * parent + 1
                guard left < heap.count else { break }
                let right = left + 1
                let smaller = right < heap.count && heap[right].precedes(heap[left]) ? right : left
                guard heap[smaller].precedes(heap[parent]) else { break }
                heap.swapAt(parent, smaller)
                parent = smaller
            }
            return taken.block
        }) {
            block()
        }
    }
}

/// Schedulings along many call paths: each level calls one of two functions, which differ only in where they return
/// to, so that `levels` levels make 2^levels paths.
enum CallPathFan {
    @inline(never)
    static func schedule(on coordinator: TestCoordinator, along path: Int, levels: Int) {
        guard levels > 0 else {
            coordinator.global.invoke { counter.value &+= 1 }
            return
        }
        if path & 1 == 0 { left(coordinator, path >> 1, levels - 1) } else { right(coordinator, path >> 1, levels - 1) }
        consume(levels)  // after the call, so that no call is a tail call that would leave no frame
    }

    @inline(never)
    static func left(_ coordinator: TestCoordinator, _ path: Int, _ levels: Int) {
        schedule(on: coordinator, along: path, levels: levels)
        consume(path)
    }

    @inline(never)
    static func right(_ coordinator: TestCoordinator, _ path: Int, _ levels: Int) {
        schedule(on: coordinator, along: path, levels: levels)
        consume(path &+ 1)
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// A context of your own: run it with `swift run -c release CustomContext`.
// `WorkerThread` is a dedicated thread with its own run loop. It implements the four requirements of
// `ExecutionContext` (plus `isCurrent`) and then works everywhere an `Exec` is taken: callback APIs, timers,
// `invoke(after:)`, notification observers, and as a task executor. The program ends by itself in well under a second.

import ExecNotifications

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - The context

/// A dedicated thread that runs the blocks given to it, one at a time, in FIFO order, until it is stopped.
///
/// - `invoke` runs inline when called on the worker thread, so nested invokes do not queue behind themselves
///   (`conditionallyAsync`, like `.main`); `invokeAsync` always queues.
/// - `invokeAndWait` from the worker thread runs inline; from elsewhere it queues and waits.
/// - `isCurrent` is exact: a thread-specific value names the worker running on this thread.
final class WorkerThread: ExecutionContext {
    private let pending = LockedBox<[@Sendable () -> Void]>([])
    private let arrivals = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)
    private let isRunning = LockedBox(true)
    /// How many blocks the run loop has run.
    let blocksRun = LockedBox(0)

    init(name: String) {
        startThread(named: name) { [self] in runLoop() }
    }

    var type: ExecutionType { .conditionallyAsync(!isCurrent) }

    var isCurrent: Bool { pthread_getspecific(currentWorkerKey) == Unmanaged.passUnretained(self).toOpaque() }

    func invoke(_ execute: @escaping @Sendable () -> Void) {
        if isCurrent { execute() } else { invokeAsync(execute) }
    }

    func invokeAsync(_ execute: @escaping @Sendable () -> Void) {
        pending.withLock { $0.append(execute) }
        arrivals.signal()
    }

    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) {
        if isCurrent { return execute() }
        let done = DispatchSemaphore(value: 0)
        invokeAsync {
            execute()
            done.signal()
        }
        done.wait()
    }

    /// Ends the thread once the blocks queued so far have run; blocks queued later never run. Waits for the end.
    func stop() {
        invokeAsync { [self] in isRunning.withLock { $0 = false } }
        stopped.wait()
    }

    /// The thread's run loop: wait for a block, run it, repeat until stopped.
    private func runLoop() {
        pthread_setspecific(currentWorkerKey, Unmanaged.passUnretained(self).toOpaque())
        while isRunning.withLock({ $0 }) {
            arrivals.wait()
            let block = pending.withLock { $0.removeFirst() }
            block()
            blocksRun.withLock { $0 += 1 }
        }
        pthread_setspecific(currentWorkerKey, nil)
        stopped.signal()
    }
}

/// Which `WorkerThread` runs on the current thread (none elsewhere).
private let currentWorkerKey: pthread_key_t = {
    var key = pthread_key_t()
    precondition(pthread_key_create(&key, nil) == 0)
    return key
}()

/// Starts a detached POSIX thread running `body`.
private func startThread(named name: String, _ body: @escaping @Sendable () -> Void) {
    final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let argument = Unmanaged.passRetained(Box(body)).toOpaque()
    #if canImport(Darwin)
    var thread: pthread_t?
    #else
    var thread = pthread_t()
    #endif
    let status = pthread_create(
        &thread, nil,
        { argument in
            Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue().body()
            return nil
        }, argument)
    precondition(status == 0, "pthread_create failed: \(status)")
    #if canImport(Darwin)
    pthread_detach(thread!)
    #else
    pthread_detach(thread)
    #endif
}

// MARK: - Using it wherever an Exec is taken

/// A callback API like any other: the caller says where the completion runs.
func fetchTemperature(city: String, context: Exec = .main, completion: @escaping @Sendable (Int) -> Void) {
    Exec.utility.invoke { context.invoke(completion, with: city.count * 3) }  // pretend this was a request
}

extension NotificationName where Payload == String {
    /// Posted when a city's forecast changes, with the city.
    static let forecastChanged = NotificationName("Forecast.changed")
}

func show(_ name: String, _ detail: String) {
    print(name + String(repeating: " ", count: max(1, 34 - name.count)) + detail)
}

let worker = WorkerThread(name: "worker")
let context = Exec.custom(worker)  // the value every ExecKit API takes
let hub = NotificationHub()

/// The steps, one after another. Each joins `group` for every callback it waits for, and returns the lifetimes that must
/// live until then (releasing a lifetime would cancel its timer or observation); the driver below keeps them.
let steps: [@Sendable (DispatchGroup) -> [any Lifetime]] = [
    { group in
        group.enter()
        fetchTemperature(city: "Lisbon", context: context) { degrees in
            show("callback", "\(degrees)°, on the worker: \(worker.isCurrent)")
            group.leave()
        }
        return []
    },
    { group in
        context.invokeAsync(group: group) {
            let order = LockedBox<[String]>([])
            context.invoke { order.withLock { $0.append("nested invoke") } }  // on the worker: inline
            order.withLock { $0.append("after it") }
            let value = context.invokeSync { 6 * 7 }  // from the worker: inline, no deadlock
            show("nested invoke, invokeSync", "\(order.withLock { $0 }), invokeSync returned \(value)")
        }
        return []
    },
    { group in
        group.enter()
        let start = context.timestamp()
        let once = context.singleTimer(interval: .milliseconds(20)) {
            let elapsed = Int(DispatchTime.now().since(start).seconds * 1000)
            show("singleTimer(20 ms)", "fired after \(elapsed) ms, on the worker: \(worker.isCurrent)")
            group.leave()
        }
        group.enter()
        let ticks = LockedBox(0)
        let periodic = LockedBox<(any Lifetime)?>(nil)
        periodic.withLock {
            $0 = context.periodicTimer(interval: .milliseconds(5)) {
                let count = ticks.withLock { count in
                    count += 1
                    return count
                }
                guard count == 3 else { return }
                periodic.withLock { $0?.cancel() }  // on a serial context: no tick runs after this returns
                show("periodicTimer(5 ms)", "ticked 3 times on the worker, then cancelled itself")
                group.leave()
            }
        }
        group.enter()
        context.invoke(after: .milliseconds(10)) {  // nothing to keep: it runs once, then lets go of itself
            show("invoke(after: 10 ms)", "ran on the worker: \(worker.isCurrent)")
            group.leave()
        }
        return [once]  // the periodic timer is kept by its own handler until it cancels itself
    },
    { group in
        group.enter()
        let observation = hub.addObserver(for: .forecastChanged, context: context) { city in
            show("observer", "\(city) changed, delivered on the worker: \(worker.isCurrent)")
            group.leave()
        }
        hub.post(.forecastChanged, payload: "Porto")  // posted from the driver thread
        return [observation]
    },
    { group in
        group.enter()
        Task(executorPreference: context.taskExecutor) {
            let before = worker.isCurrent
            try? await Task.sleep(for: .milliseconds(1))
            show(
                "Task(executorPreference:)",
                "ran on the worker before (\(before)) and after (\(worker.isCurrent)) a suspension")
            group.leave()
        }
        return []
    },
]

Exec.utility.invoke {
    for step in steps {
        let group = DispatchGroup()
        let kept = step(group)
        defer { withExtendedLifetime(kept) {} }  // until every callback of the step has run
        if group.wait(timeout: .now() + 10) == .timedOut {
            print("timed out")
            exit(1)
        }
    }
    worker.stop()
    show("stopped", "the worker ran \(worker.blocksRun.withLock { $0 }) blocks")
    Exec.main.invoke {
        print("done")
        exit(0)
    }
}
dispatchMain()  // services the main queue (the final step runs there) until exit(0)

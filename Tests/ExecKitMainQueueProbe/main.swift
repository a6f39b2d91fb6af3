// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// A helper process for ExecKitTests: it hands the main queue to `dispatchMain()`, which then runs it on a worker
// thread (the initial thread exits), and checks that `.main` still means "on the main queue" there, and that it agrees
// with `MainActor`. With the argument `runloop` it runs the main queue from Foundation's `RunLoop` on the initial
// thread instead, as a Linux program with a run loop does. With `noreader` it behaves as if libdispatch lacked
// `dispatch_get_current_queue` (Apple may remove it): the fast check stays off and every answer must still be right.
// Exits 0 when every check passes, 1 on the first failure, 2 if it hangs. With `deadlock` (and `runloop`) it makes the
// deadlock of issue #40, item 3 on purpose and stays in it: a block of a queue waits in a raw `DispatchQueue.main.sync`
// whose block waits in `invokeSync` for that queue; the test that runs it reads the report on standard error.

import CExecDispatchShims
import ExecDispatch
import ExecKit
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func check(_ condition: Bool, _ what: String) {
    print(condition ? "ok   \(what)" : "FAIL \(what)")
    if !condition { exit(1) }
}

let initialThread = pthread_self()
let drivenByRunLoop = CommandLine.arguments.dropFirst().contains("runloop")
let withoutReader = CommandLine.arguments.dropFirst().contains("noreader")
let deadlock = CommandLine.arguments.dropFirst().contains("deadlock")
if withoutReader { execkit_disable_current_queue_reader() }  // before anything asks about the main queue

nonisolated(unsafe) let watchdog = DispatchSource.singleTimer(interval: .seconds(20), queue: .global()) {
    print("FAIL timed out")
    exit(2)
}

if deadlock {
    DispatchQueue.global().async {
        let queue = Exec.asyncQueue()
        queue.invokeSync {
            DispatchQueue.main.sync {
                print("ok   the main queue waits for the queue whose block waits for it")
                fflush(nil)  // the test stops this process: what it printed must be out
                queue.invokeSync { check(false, "the deadlock ended") }
            }
        }
    }
}

DispatchQueue.main.async {
    if deadlock { return }
    if drivenByRunLoop {
        check(pthread_equal(pthread_self(), initialThread) != 0, "RunLoop runs the main queue on the initial thread")
    } else {
        check(
            pthread_equal(pthread_self(), initialThread) == 0, "dispatchMain() runs the main queue on a worker thread")
    }
    check(DispatchQueue.isMainQueueCurrent, "a main-queue block counts as on the main queue")
    // Built with --static-swift-stdlib in CI too, where looking libdispatch's symbols up with dlsym used to fail.
    if withoutReader {
        check(!MainQueueIdentity.isFastPathActive, "without the reader, the fast main-queue check stays off")
    } else {
        check(MainQueueIdentity.isFastPathActive, "the fast main-queue check is active")
    }
    check(RawQueueIdentity.isActive, "DispatchQueue.isCurrent finds the dispatch_queue_t behind a DispatchQueue")
    check(MainActor.assumeIsolated { Exec.main.isCurrent }, "a main-queue block is isolated to MainActor")
    let ran = LockedBox(false)
    Exec.main.invoke { ran.withLock { $0 = true } }
    check(ran.withLock { $0 }, ".main.invoke is immediate on the main queue")
    check(Exec.main.type == .conditionallyAsync(false), ".main.type is immediate on the main queue")
    check(Exec.main.invokeSync { 7 } == 7, ".main.invokeSync on the main queue does not deadlock")

    DispatchQueue.global().async {
        check(!DispatchQueue.isMainQueueCurrent, "a worker is not the main queue")
        // Issue #40, item 3: what a block run for a caller parked in a sync on the main queue is inside.
        let queue = Exec.asyncQueue()
        queue.invokeSync {
            check(Exec.main.invokeSync { queue.isCurrent }, "a .main.invokeSync block is inside its caller's queue")
            check(Exec.main.invokeSync { queue.invokeSync { 3 } } == 3, "... and invokeSync on that queue runs inline")
            let rawLends = DispatchQueue.main.sync { queue.isCurrent }
            if drivenByRunLoop {
                check(!rawLends, "a raw main.sync block that the run loop runs is not inside its caller's queue")
            } else {
                check(rawLends, "a raw main.sync block under dispatchMain() runs on its caller's thread, inside")
            }
        }
        check(
            Exec.main.invokeSync { DispatchQueue.isMainQueueCurrent }, ".main.invokeSync from a worker waits for main")
        Exec.main.invoke {
            check(DispatchQueue.isMainQueueCurrent, ".main.invoke from a worker runs on the main queue")
            check(MainActor.assumeIsolated { true }, "a .main callback is isolated to MainActor")
            // Released at once, so it must never fire (nor crash); the timer below fires well after it would have.
            _ = Exec.main.singleTimer(interval: .milliseconds(1)) { check(false, "a released .main timer never fires") }
            let timer = LockedBox<(any Lifetime)?>(nil)
            timer.withLock {
                $0 = Exec.main.singleTimer(interval: .milliseconds(50)) {
                    check(DispatchQueue.isMainQueueCurrent, ".main timers fire on the main queue")
                    check(true, "a released .main timer never fires")
                    withExtendedLifetime((timer, watchdog)) {}
                    exit(0)
                }
            }
        }
    }
}
if drivenByRunLoop {
    RunLoop.main.run()
} else {
    dispatchMain()
}

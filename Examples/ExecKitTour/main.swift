// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// A tour of ExecKit's contexts: run it with `swift run -c release ExecKitTour`.
// Each step prints where its callback ran; the program ends by itself in well under a second.
// Writing a callback API, a context of your own and timers each have an example of their own: CallbackAPI,
// CustomContext and Timers (see Examples/README.md).

import ExecKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A callback API in the style ExecKit is for: the caller says where the completion runs.
func computeAnswer(context: Exec = .main, completion: @escaping @Sendable (Int) -> Void) {
    Exec.utility.invoke {
        let answer = 6 * 7  // pretend this took a while
        context.invoke(completion, with: answer)  // on .direct: a plain call, nothing allocated
    }
}

func place() -> String {
    DispatchQueue.isMainQueueCurrent ? "main queue" : "another thread"
}

func step(_ name: String, _ detail: String) {
    print(name + String(repeating: " ", count: max(1, 30 - name.count)) + detail)
}

let steps = DispatchGroup()

// 1. .direct runs before invoke returns.
Exec.direct.invoke { step(".direct", "runs inline, on the caller's thread") }
step("after .direct.invoke", "returned after the block ran")

// 2. A callback API defaulting to .main, and the same API asked for .utility.
steps.enter()
computeAnswer { answer in
    step("computeAnswer(.main)", "answer \(answer) on the \(place())"); steps.leave()
}
steps.enter()
computeAnswer(context: .utility) { answer in
    step("computeAnswer(.utility)", "answer \(answer) on \(place())"); steps.leave()
}

// 3. A private serial queue used as a mutex returns values; an async one keeps FIFO order.
let lock = Exec.syncQueue()
let doubled = lock.invokeSync { 21 * 2 }
step("syncQueue().invokeSync", "returned \(doubled)")
let serial = Exec.asyncQueue()
let order = LockedBox<[Int]>([])
for i in 1...5 { serial.invoke { order.withLock { $0.append(i) } } }
serial.invokeSync { step("asyncQueue() FIFO", "ran \(order.withLock { $0 })") }

// 4. The main queue, three ways, from a worker: .main and .mainAsync queue there; .mainOrdered keeps submission order
//    even against a later invoke made on the main queue itself.
steps.enter()
Exec.default.invoke {
    let seen = LockedBox<[String]>([])
    Exec.mainOrdered.invoke { seen.withLock { $0.append("first (from a worker)") } }
    Exec.mainAsync.invoke {
        Exec.mainOrdered.invoke { seen.withLock { $0.append("second (on main)") } }
        Exec.mainAsync.invoke {
            step(".mainOrdered", "ran in order: \(seen.withLock { $0 })")
            steps.leave()
        }
    }
}

// 5. Any DispatchQueue behind the same Exec parameter (a context of your own: see the CustomContext example).
steps.enter()
let myQueue = DispatchQueue(label: "my.queue")
computeAnswer(context: .queue(myQueue, .serialAsync)) { answer in
    step(".queue(myQueue, .serialAsync)", "answer \(answer), on my.queue: \(myQueue.isCurrent)")
    steps.leave()
}

// 6. A mutex context: .direct made serial.
let mutex = Exec.direct.serialized()
step(".direct.serialized()", "type \(mutex.type), returns \(mutex.invokeSync { "under the lock" })")

// 7. Timers fire in their context (debounce, polling, timeouts, cancelling: see the Timers example).
steps.enter()
let start = Exec.main.timestamp()
let oneShot = Exec.main.singleTimer(interval: .milliseconds(20)) {
    step(
        ".main.singleTimer(20 ms)",
        "fired after \(Int(DispatchTime.now().since(start).seconds * 1000)) ms on the \(place())")
    steps.leave()
}

// Drain the main queue until every step has reported, then exit.
steps.notify(queue: .main) {
    withExtendedLifetime(oneShot) {}
    step("done", "all callbacks ran")
    exit(0)
}
dispatchMain()

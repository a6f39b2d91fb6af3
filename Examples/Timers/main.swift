// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// Timers with ExecKit: run it with `swift run -c release Timers`.
// A debounce, a periodic poll and a request timeout, stopped by `cancel()` or by releasing the lifetime, and
// `invoke(after:)` for delayed work that never needs stopping. Every timer fires in the context it was started on.
// The program ends by itself in about half a second.

import ExecKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let start = DispatchTime.now()

/// Milliseconds since the program started, for the log.
func elapsed() -> String {
    let ms = Int(DispatchTime.now().since(start).seconds * 1000)
    return String(repeating: " ", count: max(0, 4 - String(ms).count)) + "\(ms) ms"
}

func log(_ message: String) { print("  [\(elapsed())] \(message)") }

// MARK: - Debounce

/// Runs `action` once input has been quiet for `delay`: every `input` replaces the pending timer.
///
/// Replacing the lifetime releases the previous one, and releasing a lifetime cancels its timer: no `cancel()` needed.
final class Debouncer: Sendable {
    private let context: Exec
    private let delay: Duration
    private let action: @Sendable (String) -> Void
    private let pending = LockedBox<(any Lifetime)?>(nil)

    init(context: Exec, delay: Duration, action: @escaping @Sendable (String) -> Void) {
        self.context = context
        self.delay = delay
        self.action = action
    }

    func input(_ text: String) {
        let timer = context.singleTimer(parameter: text, interval: delay, handler: action)
        let previous = pending.withLock { pending in
            defer { pending = timer }
            return pending
        }
        _ = previous  // released here, outside the lock: that cancels the previous timer
    }
}

// MARK: - Request timeout

/// Completes a request with its response or, if `timeout` passes first, with `nil`, exactly once.
///
/// `OnceCompletion` runs its handler once, with the first of the response, the timeout or a cancellation: the
/// response cancels the timeout, and a response after the timeout is dropped.
func request(
    named name: String, takes duration: Duration, timeout: Duration, context: Exec,
    completion: @escaping @Sendable (String?) -> Void
) {
    let response = OnceCompletion<String>(context: context, timeout: timeout) { completion(try? $0.get()) }
    // The "server": answers after `duration`.
    context.invoke(after: duration) { response.complete("\(name): 200 OK") }
}

// MARK: - The tour

let context = Exec.asyncQueue(label: "timers")  // a serial context: every handler below runs on it, one at a time

/// The steps, one after another. Each joins `group` for every callback it waits for, and returns the objects its timers
/// need until then (a debouncer, say, is owned by its text field); the driver below keeps them.
let steps: [(String, @Sendable (DispatchGroup) -> [AnyObject])] = [
    (
        "Debounce: keystrokes every 20 ms, search once typing has paused for 100 ms",
        { group in
            group.enter()
            let debouncer = Debouncer(context: context, delay: .milliseconds(100)) { query in
                log("search \"\(query)\"")
                group.leave()
            }
            for (index, text) in ["s", "sw", "swi", "swif", "swift"].enumerated() {
                context.invoke(after: .milliseconds(20 * index)) {  // the "user", typing
                    log("typed \"\(text)\"")
                    debouncer.input(text)
                }
            }
            return [debouncer]
        }
    ),
    (
        "Poll: every 30 ms until the job is done, then cancel() from inside the handler",
        { group in
            group.enter()
            let polls = LockedBox(0)
            let poller = LockedBox<(any Lifetime)?>(nil)
            poller.withLock {
                $0 = context.periodicTimer(interval: .milliseconds(30)) {
                    let count = polls.withLock { count in
                        count += 1
                        return count
                    }
                    let done = count == 4
                    log("poll \(count): \(done ? "done" : "still running")")
                    guard done else { return }
                    poller.withLock { $0?.cancel() }  // on a serial context, no tick runs after this returns
                    group.leave()
                }
            }
            return []  // the poller is kept by its own handler until it cancels itself
        }
    ),
    (
        "Timeout: a 150 ms request with a 100 ms timeout, then a 20 ms one",
        { group in
            group.enter()
            request(named: "slow", takes: .milliseconds(150), timeout: .milliseconds(100), context: context) {
                log("slow request: \($0 ?? "timed out")")
                group.leave()
            }
            group.enter()
            request(named: "fast", takes: .milliseconds(20), timeout: .milliseconds(100), context: context) {
                log("fast request: \($0 ?? "timed out")")  // its timeout was cancelled by the response
                group.leave()
            }
            return []
        }
    ),
    (
        "Release: a timer whose lifetime is dropped never fires",
        { group in
            let fired = LockedBox(false)
            do {
                let timer = context.singleTimer(interval: .milliseconds(20)) { fired.withLock { $0 = true } }
                withExtendedLifetime(timer) {}
            }  // the last reference goes here, and the timer with it
            group.enter()
            context.invoke(after: .milliseconds(60)) {  // well past the dropped timer's deadline
                log("dropped timer fired: \(fired.withLock { $0 })")
                group.leave()
            }
            return []
        }
    ),
    (
        "invoke(after:): fire and forget, in the context, never early",
        { group in
            let requested = DispatchTime.now()
            group.enter()
            Exec.main.invoke(after: .milliseconds(25)) {
                let waited = Int(DispatchTime.now().since(requested).seconds * 1000)
                log("ran on the main queue: \(DispatchQueue.isMainQueueCurrent), after \(waited) ms")
                group.leave()
            }
            return []
        }
    ),
]

Exec.utility.invoke {
    for (title, step) in steps {
        print(title)
        let group = DispatchGroup()
        let kept = step(group)
        defer { withExtendedLifetime(kept) {} }  // until every callback of the step has run
        if group.wait(timeout: .now() + 10) == .timedOut {
            print("timed out")
            exit(1)
        }
    }
    print("done")
    exit(0)
}
dispatchMain()  // services the main queue, where the invoke(after:) step runs, until exit(0)

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// A helper process for ExecKitTests: an async `@main` program (top-level code that awaits). After its first
// suspension the main actor runs on the Dispatch main queue, which the runtime drives from a worker thread on Linux,
// and `.main` must mean that queue there: `isCurrent` on the main actor, `invoke` at once from it, callbacks and timers
// isolated to `MainActor`. Exits 0 when every check passes, 1 on the first failure, 2 if it hangs.

import ExecKit
import ExecMutex
import Foundation

/// Writes `line` at once, unbuffered: a check that traps still leaves the lines before it in the pipe.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func check(_ condition: Bool, _ what: String) {
    say(condition ? "ok   \(what)" : "FAIL \(what)")
    if !condition { exit(1) }
}

DispatchQueue.global().asyncAfter(deadline: .now() + 20) {
    say("FAIL timed out")
    exit(2)
}

await Task.yield()  // the first suspension: from here on the main actor runs on the main queue

check(Exec.main.isCurrent, "on the main actor after the first suspension, .main.isCurrent")

let ranInline = LockedBox(false)
Exec.main.invoke { ranInline.withLock { $0 = true } }
check(ranInline.withLock { $0 }, "from the main actor, .main.invoke runs the block at once")

let callbackIsolated = await withCheckedContinuation { continuation in
    DispatchQueue.global().async {
        Exec.main.invoke {
            continuation.resume(returning: MainActor.assumeIsolated { Exec.main.isCurrent })
        }
    }
}
check(callbackIsolated, "a .main callback invoked from another thread is isolated to MainActor")

let kept = LockedBox<(any Lifetime)?>(nil)
let timerOnMain = await withCheckedContinuation { continuation in
    kept.withLock {
        $0 = Exec.main.singleTimer(interval: .milliseconds(10)) {
            continuation.resume(returning: MainActor.assumeIsolated { Exec.main.isCurrent })
        }
    }
}
check(timerOnMain, ".main timers fire on the main queue, isolated to MainActor")

let mainTask = await Exec.main.task { @MainActor in Exec.main.isCurrent }.value
check(mainTask, "a task started with Exec.main.task runs on the main actor")
exit(0)

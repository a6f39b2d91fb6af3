// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

package import ExecKit

/// swift-async-queue's test "cancel the running and pending tasks of a main-actor queue", ported to a
/// `CancellableLauncher` around `context` (issue #40, item 1). Shared by ExecKitTests and the stress suite.
///
/// The first task signals a semaphore (a plain `actor`), then sleeps until cancelled; the second spins in the context,
/// holding it, until cancelled; the caller waits for the first task's signal, then cancels both. When a task on
/// `.main` preferred the main queue's executor, the semaphore ran on the main queue too, and its `signal` could wait
/// behind the spinning task for ever (7 hangs in 10 runs). Returns once both tasks have finished.
package func cancelAllBesideATaskThatHoldsTheContext(_ context: Exec) async {
    let launcher = CancellableLauncher(context)
    let semaphore = PlainSemaphore()
    let first = launcher.task {
        await semaphore.signal()
        try? await Task.sleep(for: .seconds(3_600))  // until cancelled
    }
    let second = launcher.task {
        while !Task.isCancelled {}  // holds the context: no suspension point
    }
    await semaphore.wait()
    launcher.cancelAll()
    await first.value
    await second.value
}

/// A counting semaphore in a plain (default) actor, as the peer's test has.
private actor PlainSemaphore {
    private var count = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if count > 0 {
            count -= 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func signal() {
        if waiters.isEmpty {
            count += 1
        } else {
            waiters.removeFirst().resume()
        }
    }
}

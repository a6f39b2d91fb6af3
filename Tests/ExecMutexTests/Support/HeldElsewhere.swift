// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecMutex

/// Runs `body` while another thread holds `mutex`, and returns once that thread has let go of it.
func whileAnotherThreadHolds<Return>(_ mutex: PThreadMutex, _ body: () -> Return) -> Return {
    let held = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        mutex.sync {
            held.signal()
            release.wait()
        }
        finished.signal()
    }
    held.wait()
    let result = body()
    release.signal()
    finished.wait()
    return result
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecNotifications

/// A user's own serial context on a private queue, implementing only the four requirements.
struct SerialQueueContext: ExecutionContext {
    let queue = DispatchQueue(label: "SerialQueueContext")

    var type: ExecutionType { .serialAsync }
    var isCurrent: Bool { queue.isCurrent }
    func invoke(_ execute: @escaping @Sendable () -> Void) { queue.async(execute: execute) }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { queue.async(execute: execute) }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { queue.sync(execute: execute) }
}

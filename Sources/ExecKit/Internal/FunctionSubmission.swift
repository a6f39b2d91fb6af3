// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims
import Dispatch
import ExecDispatch

// Submitting to the shared queues through `dispatch_async_f`. `DispatchQueue.async(execute:)` takes a block; given a
// closure *value* (not a literal), Swift builds a block whose invoke function is a reabstraction thunk, and the block
// copy retains the closure's context, which the dispose helper releases later. Here the closure goes into a box (one
// allocation, as the block copy was: a ``QueuedBlock``) whose pointer libdispatch hands back to a C function.

/// The raw libdispatch queues behind ExecKit's shared contexts: the main queue and the global queues by QoS.
///
/// `nonisolated(unsafe)`: the pointers are immutable, and the queue objects they name live as long as the process and
/// are thread-safe. The identifiers are the QoS classes' values (`QOS_CLASS_UTILITY` is 0x11 and so on).
enum RawQueues {
    static var main: UnsafeRawPointer { execkit_main_queue() }
    nonisolated(unsafe) static let userInteractive = execkit_dispatch_get_global_queue(0x21, 0)!
    nonisolated(unsafe) static let userInitiated = execkit_dispatch_get_global_queue(0x19, 0)!
    nonisolated(unsafe) static let `default` = execkit_dispatch_get_global_queue(0x15, 0)!
    nonisolated(unsafe) static let utility = execkit_dispatch_get_global_queue(0x11, 0)!
    nonisolated(unsafe) static let background = execkit_dispatch_get_global_queue(0x09, 0)!
}

/// Runs `body` asynchronously on `queue` (one of ``RawQueues``'s global queues), like `DispatchQueue.async`, with one
/// allocation. Serial queues go through their ``SerialQueueEntry`` instead, which records the entry.
///
/// - Ordering and QoS: as `dispatch_async`, which `DispatchQueue.async` calls.
func submit(_ body: @escaping @Sendable () -> Void, to queue: UnsafeRawPointer) {
    QueuedBlock(body, entering: nil).submit(to: queue)
}

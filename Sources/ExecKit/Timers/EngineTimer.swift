// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Synchronization

/// One timer of a ``TimerEngine``: the heap entry and, at once, the ``Lifetime`` its caller holds.
///
/// Why one object: a schedule+cancel then costs one allocation (this object; the handler's closure context is the
/// caller's), and a pending timer costs this object (72 bytes, an 80-byte malloc chunk) plus one 8-byte heap slot.
/// The heap refers to it without retaining it (see ``TimerHeap``), so releasing the last handle runs `deinit`, which
/// cancels.
///
/// Fields are laid out to fit 56 bytes after the object header: the leeway is kept in nanoseconds as a `UInt32`
/// (longer leeways are shortened to about 4.3 s, which only makes a timer more punctual) beside the heap position.
final class EngineTimer: Lifetime, @unchecked Sendable {
    // Unchecked: every `var` below is read and written only with `engine`'s lock held; `index` is atomic.

    /// Where the timer is: `0...` its heap position; ``running``: a periodic timer that is due (waiting in a concurrent
    /// engine's ready list, or its handler running), which goes back into the heap when its handler returns;
    /// ``finished``: cancelled, or a one-shot that fired; ``waiting``: a one-shot that is due, waiting in a concurrent
    /// engine's ready list for the job that runs it (cancelling it then takes its handler, and the job finds nothing).
    static let running: Int32 = -1
    static let finished: Int32 = -2
    static let waiting: Int32 = -3

    let engine: TimerEngine
    /// The user's handler; `nil` once the timer can never fire again.
    var handler: (@Sendable () -> Void)?
    /// When it is due, in `DispatchTime` uptime nanoseconds.
    var deadline: UInt64
    /// The engine's scheduling counter when this deadline was set: equal deadlines fire in this order.
    var sequence: UInt64 = 0
    /// The period in nanoseconds; 0 for a one-shot timer.
    let period: UInt64
    /// Atomic only so that `cancel()` and `deinit` can see ``finished`` without the lock; every other access holds the
    /// lock and uses relaxed ordering.
    let index = Atomic<Int32>(finished)
    /// How late the engine may fire it, in nanoseconds.
    let leeway: UInt32

    init(engine: TimerEngine, deadline: UInt64, period: UInt64, leeway: UInt32, handler: @escaping @Sendable () -> Void)
    {
        self.engine = engine
        self.deadline = deadline
        self.period = period
        self.leeway = leeway
        self.handler = handler
    }

    deinit {
        // Already cancelled or fired (the usual case): no need to reach the engine.
        if index.load(ordering: .acquiring) != Self.finished { engine.cancel(self) }
    }

    /// Stops the timer and releases its handler before returning.
    ///
    /// - Guarantee: on a serial context, once `cancel()` has returned inside the context, the handler never runs again
    ///   (a firing runs its handler in the context, and the engine looks the timer up under its lock right before).
    ///   From another thread, a handler already running finishes, and so does a firing that took the handler under
    ///   the lock before this call: its call may start after this returns (at most one call).
    /// - Cost: one lock, an O(log n) heap removal; no Dispatch call.
    func cancel() { engine.cancel(self) }
}

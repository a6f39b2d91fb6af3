// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Synchronization

/// The lifetime of a timer built on a `DispatchSourceTimer`.
///
/// The source's event handler refers only to the timer's ``HandlerSlot``, never to this lifetime, so releasing the
/// lifetime cancels the timer. `cancel()` empties the slot before it returns: the user's handler (and whatever it
/// captures) is released at once, and a firing that starts afterwards finds the slot empty and does nothing.
final class DispatchTimerLifetime: Lifetime, @unchecked Sendable {
    // Unchecked: DispatchSource is thread-safe but its Swift wrapper is not annotated Sendable; every stored property
    // is an immutable reference to a thread-safe object.
    private let source: any DispatchSourceTimer
    private let handler: HandlerSlot<@Sendable () -> Void>
    /// Set by the first `cancel()`: a second `dispatch_source_cancel` (from `deinit`, say) is not free.
    private let isCancelled = Atomic(false)

    init(source: any DispatchSourceTimer, handler: HandlerSlot<@Sendable () -> Void>) {
        self.source = source
        self.handler = handler
    }

    deinit { cancel() }

    func cancel() {
        guard !isCancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        handler.clear()
        source.cancel()
    }
}

/// Rejects zero and negative periods with a message naming the call (and, when known, where it was made), instead of
/// spinning.
func requirePositivePeriod(_ interval: Duration, _ call: StaticString, file: StaticString? = nil, line: UInt = 0) {
    guard interval <= .zero else { return }
    let place = file.map { " (called at \($0):\(line))" } ?? ""
    fatalError("ExecKit: \(call) needs a positive interval, got \(interval)\(place).")
}

/// A Dispatch timer that runs `handler` on `queue`: once, or every `interval`.
///
/// A one-shot timer takes the handler out of its slot when it fires, so the handler is released once it has run.
func dispatchTimer(
    interval: Duration,
    leeway: Duration,
    repeats: Bool,
    queue: DispatchQueue,
    handler: @escaping @Sendable () -> Void
) -> any Lifetime {
    let slot = HandlerSlot(handler)
    let fire: @Sendable () -> Void
    if repeats {
        fire = { slot.load()?() }
    } else {
        fire = { slot.take()?() }
    }
    return DispatchTimerLifetime(
        interval: interval, leeway: leeway, repeats: repeats, queue: queue, handler: slot, fire: fire)
}

extension DispatchTimerLifetime {
    /// A resumed Dispatch timer that calls `fire` on `queue`, whose lifetime empties `handler` when it ends.
    convenience init(
        interval: Duration,
        leeway: Duration,
        repeats: Bool,
        queue: DispatchQueue,
        handler: HandlerSlot<@Sendable () -> Void>,
        fire: @escaping @Sendable () -> Void
    ) {
        let (dispatchInterval, dispatchLeeway) = (DispatchTimeInterval(interval), DispatchTimeInterval(leeway))
        let source =
            repeats
            ? DispatchSource.repeatingTimer(
                interval: dispatchInterval, leeway: dispatchLeeway, queue: queue, handler: fire)
            : DispatchSource.singleTimer(
                interval: dispatchInterval, leeway: dispatchLeeway, queue: queue, handler: fire)
        self.init(source: source, handler: handler)
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Synchronization

/// The lifetime of a timer built on a `DispatchSourceTimer`.
///
/// When the handler reaches its context through another hop (a custom context's `invoke`), it checks a
/// ``TimerCancellation`` inside the context before running, so a firing already queued when `cancel()` returned is
/// dropped. Releasing the lifetime cancels the source; the handler holds only the flag, never the lifetime, so no
/// retain cycle keeps a dropped timer alive.
final class DispatchTimerLifetime: Lifetime, @unchecked Sendable {
    // Unchecked: DispatchSource is thread-safe but its Swift wrapper is not annotated Sendable; both stored properties
    // are immutable references to thread-safe objects.
    private let source: any DispatchSourceTimer
    private let cancellation: TimerCancellation?
    /// Set by the first `cancel()`: a second `dispatch_source_cancel` (from `deinit`, say) is not free.
    private let isCancelled = Atomic(false)

    init(source: any DispatchSourceTimer, cancellation: TimerCancellation?) {
        self.source = source
        self.cancellation = cancellation
    }

    deinit { cancel() }

    func cancel() {
        guard !isCancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        cancellation?.cancel()
        source.cancel()
    }
}

/// A flag a timer's handler checks, inside its context, before running the user's handler.
final class TimerCancellation: Sendable {
    private let cancelled = Atomic<Bool>(false)

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    func cancel() { cancelled.store(true, ordering: .releasing) }
}

/// Rejects zero and negative periods with a message naming the call, instead of spinning.
func requirePositivePeriod(_ interval: Duration, _ call: StaticString) {
    if interval <= .zero {
        fatalError("ExecKit: \(call) needs a positive interval, got \(interval).")
    }
}

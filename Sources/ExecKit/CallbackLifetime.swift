// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

@_spi(ExecTesting) import ExecMutex

/// A lifetime that runs a closure once, when it is first cancelled or released, whichever comes first.
///
/// Use it to turn any clean-up ("remove this observer", "close this file") into a ``Lifetime``.
///
/// - Thread-safety: may be cancelled from any thread; the closure runs exactly once, on the thread that cancelled or
///   released the lifetime. <!-- G-thread-safety-any-thread G-lifetime-callback-once -->
public final class CallbackLifetime: Lifetime {
    private let onCancel: LockedBox<(@Sendable () -> Void)?>

    /// Creates a lifetime that calls `onCancel` when it ends.
    public init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = LockedBox(onCancel, observed: false)
    }

    deinit { cancel() }

    /// Whether the lifetime has ended.
    public var isCancelled: Bool {
        onCancel.withLock { $0 == nil }
    }

    /// Runs the closure if it has not run yet.
    public func cancel() {
        let action = onCancel.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }
}

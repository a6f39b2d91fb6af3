// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// The shared queues, fetched once: on Linux `DispatchQueue.main` and `DispatchQueue.global(qos:)` allocate a new
/// wrapper object on every access.
@usableFromInline
enum GlobalQueues {
    @usableFromInline static let main = DispatchQueue.main
    @usableFromInline static let userInteractive = DispatchQueue.global(qos: .userInteractive)
    @usableFromInline static let userInitiated = DispatchQueue.global(qos: .userInitiated)
    @usableFromInline static let `default` = DispatchQueue.global(qos: .default)
    @usableFromInline static let utility = DispatchQueue.global(qos: .utility)
    @usableFromInline static let background = DispatchQueue.global(qos: .background)
}

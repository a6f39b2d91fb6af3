// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

@_spi(ExecTesting) import ExecMutex

/// Counts the points at which real threads could get into a block of the global queue that an exploration runs whole
/// (one made without `interleavesGlobalBlocks`): each call it makes onto the coordinator and each observed lock it
/// takes. Two or more, and the run leaves orderings out. Used on the runner's thread only, for one block.
final class PointCounter: LockObserver, @unchecked Sendable {
    private(set) var points = 0

    /// A call onto the coordinator.
    func count() { points += 1 }

    override func didLock(_ mutex: PThreadMutex) { points += 1 }
}

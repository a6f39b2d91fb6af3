// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether this process runs under the Thread Sanitizer (`swift test --sanitize=thread`).
///
/// Stress tests shrink their sizes when it is: every memory access costs several times more there, and the sizes that
/// take a second in a debug build would take minutes. Detected at run time, because the same sources build both ways:
/// the sanitizer's runtime exports `__tsan_init` from the executable.
let isThreadSanitizerActive: Bool = dlsym(nil, "__tsan_init") != nil

/// Runs `body(index)` for every index in `0..<count`, each on a new POSIX thread of its own, started together.
///
/// Real threads rather than global-queue blocks: Dispatch runs as many blocks at once as there are cores (two here),
/// while the kernel interleaves threads preemptively, which is the contention a stress test wants.
///
/// - Returns: Whether every thread finished within `timeout` seconds (generous: a stuck thread fails the test
///   instead of hanging it).
func runOnThreads(_ count: Int, timeout: Double = 60, _ body: @escaping @Sendable (Int) -> Void) -> Bool {
    let finished = DispatchGroup()
    let gate = DispatchSemaphore(value: 0)
    for index in 0..<count {
        finished.enter()
        startDetachedThread {
            gate.wait()
            body(index)
            finished.leave()
        }
    }
    for _ in 0..<count { gate.signal() }  // every thread exists before any starts working
    return finished.wait(timeout: .now() + timeout) == .success
}

/// The closure a thread started by ``startDetachedThread(_:)`` runs, passed through `pthread_create`'s raw pointer.
private final class ThreadBody {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

private func startDetachedThread(_ body: @escaping @Sendable () -> Void) {
    let argument = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    #if canImport(Darwin)
    var thread: pthread_t?
    #else
    var thread = pthread_t()
    #endif
    let status = pthread_create(
        &thread, nil,
        { argument in
            Unmanaged<ThreadBody>.fromOpaque(argument!).takeRetainedValue().run()
            return nil
        }, argument)
    precondition(status == 0, "pthread_create failed: \(status)")
    #if canImport(Darwin)
    pthread_detach(thread!)
    #else
    pthread_detach(thread)
    #endif
}

/// A counter with no lock of its own: only the mutual exclusion of whatever calls ``increment()`` keeps its total
/// exact. It also notices two callers inside at once.
///
/// The overlap check uses relaxed atomics on purpose: acquiring or releasing ones would order the plain increments
/// themselves and hide a missing lock from the Thread Sanitizer.
final class UnguardedCounter: @unchecked Sendable {
    // Unchecked: `count` is exactly what the test shares without a lock of its own; the caller's mutex guards it.
    private var count = 0
    private let inside = Atomic(false)
    private let overlaps = Atomic(0)

    func increment() {
        if inside.exchange(true, ordering: .relaxed) { overlaps.add(1, ordering: .relaxed) }
        count += 1
        inside.store(false, ordering: .relaxed)
    }

    /// The total; read it only once every increment has finished (after a wait that orders them before the read).
    var value: Int { count }

    /// How many increments found another one under way.
    var overlapCount: Int { overlaps.load(ordering: .relaxed) }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// What the test targets share: thread and memory helpers for stress tests, a seeded random generator, and polling for
// releases. A target of the package (not a product), so each test target imports it instead of keeping a copy.

package import ExecKit
package import Foundation
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
package let isThreadSanitizerActive: Bool = dlsym(searchEveryImage(), "__tsan_init") != nil

/// The `dlsym` handle that searches every loaded image: `RTLD_DEFAULT`, which is a null pointer on Linux but `-2` on
/// Apple platforms (where a null handle finds nothing, so the sanitizer would go unnoticed).
private func searchEveryImage() -> UnsafeMutableRawPointer? {
    #if canImport(Darwin)
    return UnsafeMutableRawPointer(bitPattern: -2)
    #else
    return nil
    #endif
}

/// Waits for `semaphore` for at most `seconds`; `true` when it was signalled.
///
/// A synchronous function on purpose: Apple's Dispatch forbids `DispatchSemaphore.wait` directly inside async code
/// (an exit-test body, an async test), and a call through a synchronous function is the documented way to block
/// there deliberately. `.ci/check-noasync-waits.py` finds direct calls.
package func waitBlocking(_ semaphore: DispatchSemaphore, seconds: Double) -> Bool {
    semaphore.wait(timeout: .now() + seconds) == .success
}

/// Runs `body(index)` for every index in `0..<count`, each on a new POSIX thread of its own, started together.
///
/// Real threads rather than global-queue blocks: Dispatch runs as many blocks at once as there are cores (two here),
/// while the kernel interleaves threads preemptively, which is the contention a stress test wants.
///
/// - Returns: Whether every thread finished within `timeout` seconds (generous: a stuck thread fails the test
///   instead of hanging it).
package func runOnThreads(_ count: Int, timeout: Double = 60, _ body: @escaping @Sendable (Int) -> Void) -> Bool {
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

/// Starts a new POSIX thread that runs `body`, and returns at once.
///
/// A thread of its own, not a Dispatch worker: code that blocks there (waiting on a semaphore, say) takes no thread
/// from libdispatch's pools, where Swift's global executor also runs on Linux.
package func startDetachedThread(_ body: @escaping @Sendable () -> Void) {
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

/// A fixed array of atomic counters, for counting how often each of many blocks ran.
package final class AtomicCounters: @unchecked Sendable {
    // Unchecked: the buffer is allocated once, never moves, and is only accessed through atomic operations.
    private let base: UnsafeMutablePointer<Atomic<Int>>
    package let count: Int

    package init(count: Int) {
        self.count = count
        base = .allocate(capacity: count)
        for index in 0..<count { (base + index).initialize(to: Atomic(0)) }
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// Adds one to counter `index` and returns its new value.
    @discardableResult
    package func increment(_ index: Int) -> Int { base[index].add(1, ordering: .relaxed).newValue }

    /// Subtracts one from counter `index` and returns its new value.
    @discardableResult
    package func decrement(_ index: Int) -> Int { base[index].subtract(1, ordering: .relaxed).newValue }

    /// Stores `value` in counter `index` and returns what it held.
    package func exchange(_ index: Int, _ value: Int) -> Int { base[index].exchange(value, ordering: .relaxed) }

    package func value(_ index: Int) -> Int { base[index].load(ordering: .relaxed) }
}

/// A 64-bit SplitMix generator: deterministic from its seed, so a stress test makes the same choices on every run.
package struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// The resident size once the work queued on `context` has run (a block queued now has run, so what was queued
/// before it, such as cancelled timers' disposal, has started; bounded by a generous 30 s) and the allocator has handed
/// its free pages back to the system: memory in use, rather than the allocator's high-water mark, which a backlog of
/// objects still waiting to be freed raises (under load, by more than 10 MB for a million timers).
package func settledResidentMemoryBytes(after context: Exec) -> Int {
    let done = DispatchSemaphore(value: 0)
    context.invokeAsync { done.signal() }
    _ = done.wait(timeout: .now() + 30)
    // glibc's `malloc_trim`, looked up at run time: `malloc.h` is not part of Swift's Glibc module.
    if let trim = dlsym(nil, "malloc_trim") {
        _ = unsafeBitCast(trim, to: (@convention(c) (Int) -> Int32).self)(0)
    }
    return residentMemoryBytes() ?? 0
}

/// The resident set size of this process in bytes, or `nil` where `/proc/self/statm` does not exist (not Linux).
///
/// Field 2 of `statm` is the number of resident pages.
package func residentMemoryBytes() -> Int? {
    #if os(Linux)
    guard let file = fopen("/proc/self/statm", "r") else { return nil }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 256)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
    let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let fields = line.split { $0 == " " || $0 == "\n" }
    guard fields.count >= 2, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
    return nil
    #endif
}

/// A counter with no lock of its own: only the mutual exclusion of whatever calls ``increment()`` keeps its total
/// exact. It also notices two callers inside at once.
///
/// The overlap check uses relaxed atomics on purpose: acquiring or releasing ones would order the plain increments
/// themselves and hide a missing lock from the Thread Sanitizer.
package final class UnguardedCounter: @unchecked Sendable {
    // Unchecked: `count` is exactly what the test shares without a lock of its own; the caller's mutex guards it.
    private var count = 0
    private let inside = Atomic(false)
    private let overlaps = Atomic(0)

    package init() {}

    package func increment() {
        if inside.exchange(true, ordering: .relaxed) { overlaps.add(1, ordering: .relaxed) }
        count += 1
        inside.store(false, ordering: .relaxed)
    }

    /// The total; read it only once every increment has finished (after a wait that orders them before the read).
    package var value: Int { count }

    /// How many increments found another one under way.
    package var overlapCount: Int { overlaps.load(ordering: .relaxed) }
}

/// Whether `reference()` becomes `nil` within `timeout` seconds: how a test proves something was released.
///
/// Releases can happen on another thread a moment later (a context's drain, the last post to leave the hub), and no
/// event announces them, so this polls every millisecond up to a generous bound; a leak fails the test instead of
/// hanging it.
package func becomesNil(timeout: Double = 10, _ reference: () -> AnyObject?) -> Bool {
    eventually(timeout: timeout) { reference() == nil }
}

/// Whether `condition()` becomes true within `timeout` seconds, polled every millisecond.
package func eventually(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now() + timeout
    while !condition() {
        if DispatchTime.now() > deadline { return false }
        usleep(1_000)
    }
    return true
}

/// The executable `name` that SwiftPM built beside the test binary, or `nil`.
///
/// On macOS the search starts from the test bundle that holds this code (`Bundle(for:)`), not from
/// `CommandLine.arguments[0]`: SwiftPM runs tests there inside a helper process of the toolchain's, whose argument 0
/// lies far from the build. On Linux the test binary is the process, next to the products.
package func builtProduct(named name: String) -> URL? {
    #if canImport(Darwin)
    var directory = Bundle(for: ProductSearchAnchor.self).bundleURL.deletingLastPathComponent()
    #else
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    #endif
    while directory.pathComponents.count > 1 {
        let candidate = directory.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory.deleteLastPathComponent()
    }
    return nil
}

/// A class of the test binary's own, so that `Bundle(for:)` names the bundle it was loaded from.
private final class ProductSearchAnchor {}

/// `task`'s value, or `nil` when it has not finished within `seconds`: a test that fails instead of hanging.
///
/// The default is generous: the bound counts from this call, and under the Thread Sanitizer the exploration examples
/// hold both of the cooperative pool's threads for about a minute, during which no task of another test runs (30 s
/// failed `CancellableLauncherReleaseTests` that way, with every task finished once the pool was free).
package func value<Value: Sendable>(of task: Task<Value, Never>, within seconds: Double = 120) async -> Value? {
    await withCheckedContinuation { continuation in
        let pending = LockedBox<CheckedContinuation<Value?, Never>?>(continuation)
        let finish: @Sendable (Value?) -> Void = { value in
            pending.withLock { pending in
                defer { pending = nil }
                return pending
            }?.resume(returning: value)
        }
        Task { finish(await task.value) }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { finish(nil) }
    }
}

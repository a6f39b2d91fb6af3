// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit

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

/// A 64-bit SplitMix generator: deterministic from its seed, so a stress test makes the same choices on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
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
func settledResidentMemoryBytes(after context: Exec) -> Int {
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
func residentMemoryBytes() -> Int? {
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

/// Whether `reference()` becomes `nil` within `timeout` seconds: how a test proves something was released.
///
/// Releases can happen on another thread a moment later (a context's drain, the last post to leave the hub), and no
/// event announces them, so this polls every millisecond up to a generous bound; a leak fails the test instead of
/// hanging it. (The same helper as ExecKitTests' support.)
func becomesNil(timeout: Double = 10, _ reference: () -> AnyObject?) -> Bool {
    eventually(timeout: timeout) { reference() == nil }
}

/// Whether `condition()` becomes true within `timeout` seconds, polled every millisecond.
func eventually(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now() + timeout
    while !condition() {
        if DispatchTime.now() > deadline { return false }
        usleep(1_000)
    }
    return true
}

/// A user's own serial context on a private queue, implementing only the four requirements.
struct SerialQueueContext: ExecutionContext {
    let queue = DispatchQueue(label: "SerialQueueContext")

    var type: ExecutionType { .serialAsync }
    var isCurrent: Bool { queue.isCurrent }
    func invoke(_ execute: @escaping @Sendable () -> Void) { queue.async(execute: execute) }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { queue.async(execute: execute) }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { queue.sync(execute: execute) }
}

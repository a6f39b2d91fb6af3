// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecDispatch
import ExecKit
import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension TestCoordinator {
    /// Runs `body` with the shared contexts (`Exec.main`, `.mainAsync`, `.mainOrdered`, the global-queue cases and
    /// the asynchronous side of `.direct`) redirected to this coordinator, so code that hard-wires them runs in
    /// virtual time without being rewritten.
    ///
    /// ```swift
    /// coordinator.overridingSharedContexts {
    ///     let poller = Poller()                   // calls Exec.utility.periodicTimer(…) and Exec.main.invoke { … }
    ///     coordinator.advance(by: .seconds(60))   // inside the scope: the work it runs still sees the override
    ///     #expect(poller.polls == 6)
    /// }
    /// ```
    ///
    /// Inside the scope, `.main` and `.mainOrdered` behave as ``main``, `.mainAsync` as ``mainAsync``, `.interactive`
    /// through `.background` as ``global``, and `.direct`'s `invokeAsync`, timers and task executor go to ``direct``'s.
    /// Their `invoke`, `invokeAsync`, `invokeSync`, timers, `timestamp()`, `taskExecutor`, `task { }`, `perform`,
    /// `type` and `isCurrent` all follow. <!-- G-virtual-override-redirects -->
    ///
    /// - Scope: a task-local value. It covers `body`, the coordinator work that `body`'s calls to ``runUntilIdle()``
    ///   and ``advance(by:)`` run, and tasks created in `body` (`Task { }`, not `Task.detached`). Other threads, and
    ///   tests running in parallel, keep the real contexts. Advance the coordinator *inside* the scope: work run
    ///   after it ends sees the real contexts again. <!-- G-virtual-override-scope -->
    /// - Limits: only `Exec`'s slow paths consult the override, so that the fast paths cost nothing extra.
    ///   - When the real main queue runs the test (XCTest, or a `@MainActor` test), `.main.invoke` and `.main`'s
    ///     `perform` run inline on the real main queue, and `.main.isCurrent` is `true`. Run such tests off the
    ///     main actor; for `@MainActor` code, which cannot move off it, pass ``main`` to the code instead (the
    ///     *Testing @MainActor code* section of *Testing with virtual time*). <!-- G-virtual-override-main-warning -->
    ///   - Private queues made inside the scope are simulated: `Exec.asyncQueue(label:qos:)` and
    ///     `Exec.syncQueue(label:qos:)` return ``serialQueue(named:type:)`` queues named by their label, and
    ///     `serialized()` of a global-queue case one named `"ExecKit.serialized"`. Queues made before the scope, or
    ///     on another thread, stay real. <!-- G-virtual-override-private-queues -->
    ///   - Not redirected: `Exec.queue(_:_:)` (it wraps a Dispatch queue the caller made), `.custom` contexts,
    ///     `Exec.onMainActor`, actors using `.main`'s `unownedSerialExecutor` (that is `MainActor`'s), and code that
    ///     calls Dispatch, `MainActor` or `Task.sleep` directly. <!-- G-virtual-override-not-redirected -->
    /// - Cost: none on `.direct.invoke` and on `.main.invoke` from the main queue; one relaxed atomic load on other
    ///   paths once any override has been installed in the process, plus a task-local look-up.
    ///   <!-- G-virtual-override-cost -->
    ///
    /// Entered on the real main queue, it writes one line to standard error, once per process, naming that limit.
    /// <!-- G-virtual-override-main-warning -->
    public func overridingSharedContexts<Return>(_ body: () throws -> Return) rethrows -> Return {
        Self.warnIfOnTheMainQueue()
        return try SharedContextOverride.withOverride(sharedContextOverride, body)
    }

    /// Runs the asynchronous `body` with the shared contexts redirected to this coordinator; see
    /// ``overridingSharedContexts(_:)``.
    public func overridingSharedContexts<Return>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Return
    ) async rethrows -> Return {
        Self.warnIfOnTheMainQueue()
        return try await SharedContextOverride.withOverride(sharedContextOverride, isolation: isolation, body)
    }

    private static let warnedAboutTheMainQueue = Atomic(false)

    /// The override cannot reach `.main`'s inlined fast path, which a test on the real main queue takes; say so once,
    /// since such a test passes while its `.main` work runs outside virtual time.
    private static func warnIfOnTheMainQueue() {
        guard DispatchQueue.isMainQueueCurrent, !warnedAboutTheMainQueue.exchange(true, ordering: .relaxed) else {
            return
        }
        let line =
            "ExecTesting: overridingSharedContexts was entered on the real main queue (an XCTest, or a @MainActor "
            + "test). There, Exec.main.invoke and .main's perform run inline on the real main queue, outside virtual "
            + "time. Run the test off the main actor to redirect them too; for @MainActor code, pass it "
            + "coordinator.main instead of Exec.main (see 'Testing @MainActor code' in ExecTesting's documentation).\n"
        StandardError.write(line)
    }

    /// This coordinator's contexts in place of the shared ones.
    private var sharedContextOverride: SharedContextOverride {
        SharedContextOverride(direct: direct, main: main, mainAsync: mainAsync, global: global) { label, type in
            self.serialQueue(named: label, type: type)
        }
    }
}

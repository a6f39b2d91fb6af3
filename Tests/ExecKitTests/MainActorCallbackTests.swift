// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Testing

/// A callback API written the recommended way: it takes a context and a `@Sendable` completion.
private func load(
    _ id: Int,
    context: Exec = .main,
    completion: @escaping @Sendable (Result<String, TestError>) -> Void
) {
    Exec.utility.invoke { context.invoke(completion, with: .success("item \(id)")) }
}

/// A `@MainActor` view model that writes its state from a completion and a timer. This file failing to compile in
/// Swift 6 mode is the test that the pattern works; the assertions check that the writes run on the main actor.
@MainActor private final class ViewModel {
    var title = ""
    var ticks = 0
    var titleWasSetOnMain = false
    private var timer: (any Lifetime)?

    func refresh(id: Int, then done: @escaping @Sendable () -> Void) {
        load(
            id, context: .main,
            completion: Exec.onMainActor { result in
                self.title = (try? result.get()) ?? "failed"
                self.titleWasSetOnMain = Exec.main.isCurrent
                done()
            })
    }

    func startTicking(until count: Int, then done: @escaping @Sendable () -> Void) {
        timer = Exec.main.periodicTimer(
            interval: .milliseconds(1),
            handler: Exec.onMainActor {
                self.ticks += 1
                if self.ticks == count {
                    self.timer?.cancel()
                    done()
                }
            })
    }
}

@Suite struct MainActorCallbackTests {
    @Test @MainActor func aMainActorTypeWritesItsStateInAMainCompletion() async {
        let model = ViewModel()
        await withCheckedContinuation { continuation in model.refresh(id: 7) { continuation.resume() } }
        #expect(model.title == "item 7")
        #expect(model.titleWasSetOnMain)
    }

    @Test @MainActor func aMainActorTypeWritesItsStateInAMainTimer() async {
        let model = ViewModel()
        await withCheckedContinuation { continuation in model.startTicking(until: 3) { continuation.resume() } }
        #expect(model.ticks == 3)
    }

    /// Handed to the wrong context, the callback still runs on the main actor (queued there).
    // Guarantees: G-main-onmainactor
    @Test func aMainActorCallbackCalledElsewhereHopsToMain() async {
        let onMain = await withCheckedContinuation { continuation in
            let callback = Exec.onMainActor { (value: Int) in continuation.resume(returning: Exec.main.isCurrent) }
            Exec.utility.invoke { callback(1) }
        }
        #expect(onMain)
    }

    /// On the main queue the callback runs inline: before main-queue work queued earlier.
    // Guarantees: G-main-onmainactor
    @Test @MainActor func onTheMainQueueItRunsInline() {
        let order = LockedBox<[String]>([])
        DispatchQueue.main.async { order.withLock { $0.append("queued earlier") } }
        let callback = Exec.onMainActor { order.withLock { $0.append("callback") } }
        callback()
        #expect(order.withLock { $0 } == ["callback"])
    }
}

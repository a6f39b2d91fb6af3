// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecNotifications
import Testing

extension NotificationName where Payload == String {
    fileprivate static let title = NotificationName("test.mainActor.title")
}

/// A `@MainActor` model that writes its state from a `.main` observer; the file compiling in Swift 6 mode is part of
/// the test.
@MainActor private final class TitleModel {
    var title = ""
    var wasSetOnMain = false
    var observation: (any Lifetime)?
    var changed: (@Sendable () -> Void)?

    func observe(_ hub: NotificationHub) {
        observation = hub.addObserver(
            for: .title, context: .main,
            using: Exec.onMainActor { title in
                self.title = title
                self.wasSetOnMain = Exec.main.isCurrent
                self.changed?()
            })
    }
}

@Suite struct MainActorObserverTests {
    // Guarantees: G-hub-context-delivery
    @Test @MainActor func aMainActorModelWritesItsStateInAMainObserver() async {
        let hub = NotificationHub()
        let model = TitleModel()
        model.observe(hub)
        await withCheckedContinuation { continuation in
            model.changed = { continuation.resume() }
            Exec.utility.invoke { hub.post(.title, payload: "Untitled") }  // posted off the main queue
        }
        #expect(model.title == "Untitled")
        #expect(model.wasSetOnMain)
        model.observation?.cancel()
    }
}

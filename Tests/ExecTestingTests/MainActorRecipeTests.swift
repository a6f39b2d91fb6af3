// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// A `@MainActor` view model that takes the context its callbacks run in: `.main` in the app, `coordinator.main` in
/// a test. Its timer handler runs on the main queue, so it may assume the main actor's isolation.
@MainActor private final class CountingSearchViewModel {
    private(set) var results: [String] = []
    private(set) var searches = 0
    private let context: Exec
    private var debounce: (any Lifetime)?

    init(context: Exec = .main) { self.context = context }

    func type(_ query: String) {
        debounce = context.singleTimer(interval: .milliseconds(300)) { [weak self] in
            MainActor.assumeIsolated {
                self?.searches += 1
                self?.results = ["results for \(query)"]
            }
        }
    }
}

/// The recipe for `@MainActor` code (TestingWithVirtualTime.md): a `@MainActor` test passes `coordinator.main`, and
/// `advance` runs the simulated main queue's work on the test's thread, which is the main actor's.
@Suite struct MainActorRecipeTests {
    // Guarantees: G-virtual-mainactor-recipe
    @Test @MainActor func aMainActorViewModelRunsInVirtualTimeWithCoordinatorMain() {
        let coordinator = TestCoordinator()
        let model = CountingSearchViewModel(context: coordinator.main)
        for text in ["s", "sw", "swift"] {
            model.type(text)
            coordinator.advance(by: .milliseconds(100))
        }
        #expect(model.searches == 0)
        coordinator.advance(by: .milliseconds(300))
        #expect(model.searches == 1)
        #expect(model.results == ["results for swift"])
        coordinator.assertNoPendingWork { Issue.record(Comment(rawValue: $0)) }
    }
}

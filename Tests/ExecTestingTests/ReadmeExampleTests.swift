// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// The README's Testing example, verbatim, so that it keeps compiling and passing.
@Test func searchWaitsForTheUserToStopTyping() {
    let coordinator = TestCoordinator()
    let searches = LockedBox<[String]>([])
    let field = SearchField(context: coordinator.main, debounce: .milliseconds(300)) { query in
        searches.withLock { $0.append(query) }
    }
    for text in ["s", "sw", "swi", "swift"] {
        field.type(text)
        coordinator.advance(by: .milliseconds(100))  // faster than the debounce: no search yet
    }
    #expect(searches.withLock { $0 }.isEmpty)
    coordinator.advance(by: .milliseconds(300))
    #expect(searches.withLock { $0 } == ["swift"])
    coordinator.assertNoPendingWork { Issue.record(Comment(rawValue: $0)) }
}

/// A search field that searches once the user has stopped typing for `debounce`, in `context`.
final class SearchField: Sendable {
    private let context: Exec
    private let debounce: Duration
    private let search: @Sendable (String) -> Void
    private let pending = LockedBox<(any Lifetime)?>(nil)

    init(context: Exec, debounce: Duration, search: @escaping @Sendable (String) -> Void) {
        self.context = context
        self.debounce = debounce
        self.search = search
    }

    func type(_ text: String) {
        let timer = context.singleTimer(parameter: text, interval: debounce, handler: search)
        let previous = pending.withLock { pending in
            defer { pending = timer }
            return pending
        }
        previous?.cancel()
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecNotifications
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What *Notifications* promises about observers on `mutex` contexts: posting, from inside such an observer, to another
/// observer on the same context runs that observer inline on `Exec.direct.serialized()` (a re-entrant lock), and stops
/// the program with the re-entry message on a mutex queue (`Exec.syncQueue()`), never a hang. (Until issue #32 the
/// article said both stop the program.)
@Suite struct MutexContextObserverTests {
    // Guarantees: G-hub-serialized-reentrant
    @Test func aSerializedDirectObserverPostingToItsNeighbourDeliversInlineDepthFirst() {
        let hub = NotificationHub()
        let context = Exec.direct.serialized()
        let log = LockedBox<[String]>([])
        let first = hub.addObserver(for: .number, context: context) { value in
            log.withLock { $0.append("first \(value)") }
            if value == 1 { hub.post(.number, payload: 2) }
            log.withLock { $0.append("first \(value) done") }
        }
        let second = hub.addObserver(for: .number, context: context) { value in
            log.withLock { $0.append("second \(value)") }
        }
        hub.post(.number, payload: 1)
        let end = ContinuousClock.now + .seconds(10)
        while log.withLock({ $0.count }) < 6 && ContinuousClock.now < end { usleep(1_000) }
        let entries = log.withLock { $0 }
        // Depth first: the nested post reaches the second observer inline, before the outer post continues.
        #expect(entries.prefix(3) == ["first 1", "second 2", "first 1 done"])
        // The first observer receives its own nested post after its block returns (one post at a time, in order),
        // queued: it may run before or after the outer post reaches the second observer, never inside another block.
        let rest = Array(entries.dropFirst(3))
        #expect(rest == ["second 1", "first 2", "first 2 done"] || rest == ["first 2", "first 2 done", "second 1"])
        withExtendedLifetime((first, second)) {}
    }

    #if os(macOS) || os(Linux) || os(Windows)
    // Guarantees: G-hub-mutex-reentry-stops
    @Test func aSyncQueueObserverPostingToItsNeighbourStopsWithTheReentryMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let hub = NotificationHub()
            let context = Exec.syncQueue(label: "observers")
            let first = hub.addObserver(for: .number, context: context) { value in
                if value == 1 { hub.post(.number, payload: 2) }
            }
            let second = hub.addObserver(for: .number, context: context) { _ in }
            hub.post(.number, payload: 1)
            withExtendedLifetime((first, second)) {}
            exit(0)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("invoked from inside that same queue"), "child output:\n\(message)")
    }
    #endif
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// A tour of ExecNotifications: run it with `swift run -c release NotificationsTour`.
// A model posts typed changes; a `.main` observer updates "UI" state; an async consumer reads a stream.
// The program ends by itself in well under a second.

import ExecNotifications

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A model object that announces its changes.
final class Counter: Sendable {
    private let value = LockedBox(0)
    let hub: NotificationHub

    init(hub: NotificationHub) { self.hub = hub }

    func increment() {
        let new = value.withLock { value in
            value += 1
            return value
        }
        hub.post(.counterChanged, object: self, payload: new)
    }

    func reset() {
        value.withLock { $0 = 0 }
        hub.post(.counterReset, object: self)
    }
}

extension NotificationName where Payload == Int {
    /// Posted by a ``Counter`` with its new value.
    static let counterChanged = NotificationName("Counter.changed")
}

extension NotificationName where Payload == Void {
    /// Posted by a ``Counter`` when it goes back to zero.
    static let counterReset = NotificationName("Counter.reset")
}

/// Stand-in for UI state: only touched on the main queue.
@MainActor final class Screen {
    static let shared = Screen()
    var label = "–"
}

let hub = NotificationHub()
let counter = Counter(hub: hub)

// 1. A .direct observer runs inside post, before it returns.
let log = LockedBox<[String]>([])
let logging = hub.addObserver(for: .counterReset, object: counter) { log.withLock { $0.append("reset") } }
counter.reset()
print(".direct observer ran inside post:      \(log.withLock { $0 })")

// 2. A .main observer updates "UI" state on the main queue, in post order, whichever thread posted.
let updatesSeen = LockedBox(0)
let ui = hub.addObserver(for: .counterChanged, object: counter, context: .main) { value in
    MainActor.assumeIsolated { Screen.shared.label = "count: \(value)" }
    updatesSeen.withLock { $0 += 1 }
}

// 3. An async consumer: the stream is registered now, so no post below is lost.
let stream = hub.notifications(for: .counterChanged, object: counter)
let consumer = Task {
    var values: [Int] = []
    for await value in stream {
        values.append(value)
        if values.count == 5 { break }
    }
    return values
}

// The model changes on a background thread.
let posted = DispatchSemaphore(value: 0)
Exec.utility.invoke {
    for _ in 1...5 { counter.increment() }
    posted.signal()
}
posted.wait()

// 4. Cancelling (or releasing) an observation ends it; later posts do not reach it.
let cancelled = hub.addObserver(for: .counterChanged) { _ in print("never printed") }
cancelled.cancel()

Task { @MainActor in
    let values = await consumer.value
    print("async stream received, in order:       \(values)")
    print(".main observer saw \(updatesSeen.withLock { $0 }) updates, UI shows:  \(Screen.shared.label)")
    withExtendedLifetime((logging, ui)) {}
    exit(0)
}
dispatchMain()

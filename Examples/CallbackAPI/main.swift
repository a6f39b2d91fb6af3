// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// A callback API written with ExecKit: run it with `swift run -c release CallbackAPI`.
// `KeyValueStore` keeps its state on a private serial queue, and every method takes `context: Exec = .main`, so the
// caller decides where its completion runs. The program ends by itself in well under a second.

import ExecKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - The API

/// A key-value store whose state lives on one private serial queue.
///
/// Every method returns at once; its completion runs in the caller's `context` (the main queue unless told
/// otherwise), with the result handed over by `invoke(_:with:)`, which on `.direct` is a plain call.
final class KeyValueStore: @unchecked Sendable {
    // Unchecked: `values` is only touched by blocks running on `queue`, which is serial (checked by `precondition`).
    private var values: [String: String] = [:]
    /// The store's own context. Internal rather than private only so this tour can show where callbacks run.
    let queue = Exec.asyncQueue(label: "KeyValueStore")

    /// Looks up `key`; calls `completion` with the value (or `nil`) in `context`.
    func value(
        forKey key: String, context: Exec = .main, completion: @escaping @Sendable (String?) -> Void
    ) {
        queue.invoke {
            let value = self.storage[key]
            context.invoke(completion, with: value)  // the delivery step: no closure built on .direct
        }
    }

    /// Stores `value` under `key`; calls `completion` with the previous value in `context`.
    func setValue(
        _ value: String?, forKey key: String, context: Exec = .main,
        completion: @escaping @Sendable (String?) -> Void = { _ in }
    ) {
        queue.invoke {
            let previous = self.storage[key]
            self.storage[key] = value
            context.invoke(completion, with: previous)
        }
    }

    /// Every key, sorted; calls `completion` in `context`.
    func keys(context: Exec = .main, completion: @escaping @Sendable ([String]) -> Void) {
        queue.invoke { context.invoke(completion, with: self.storage.keys.sorted()) }
    }

    /// The state, reachable only from the store's queue.
    private var storage: [String: String] {
        get {
            precondition(queue.isCurrent, "KeyValueStore state touched off its queue")
            return values
        }
        set {
            precondition(queue.isCurrent, "KeyValueStore state touched off its queue")
            values = newValue
        }
    }
}

// MARK: - Callers

/// A context of the caller's own: it runs blocks on a global queue and counts them (an audit trail, say).
final class AuditedContext: ExecutionContext {
    let count = LockedBox(0)
    var type: ExecutionType { .concurrentAsync }
    func invoke(_ execute: @escaping @Sendable () -> Void) { invokeAsync(execute) }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) {
        count.withLock { $0 += 1 }
        Exec.utility.invokeAsync(execute)
    }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) {
        count.withLock { $0 += 1 }
        Exec.utility.invokeAndWait(execute)
    }
}

/// A screen's model: main-actor state, written in a `.main` completion without `assumeIsolated`.
@MainActor final class SettingsScreen {
    var theme = "(not loaded)"

    func reload(from store: KeyValueStore, then done: @escaping @MainActor () -> Void) {
        // The default context is .main; `Exec.onMainActor` makes the literal a @MainActor closure.
        store.value(
            forKey: "theme",
            completion: Exec.onMainActor { value in
                self.theme = value ?? "light"
                done()
            })
    }
}

func place(_ store: KeyValueStore) -> String {
    if DispatchQueue.isMainQueueCurrent { return "the main queue" }
    if store.queue.isCurrent { return "the store's queue" }
    return "another thread"
}

func show(_ name: String, _ detail: String) {
    print(name.padding(36) + detail)
}

extension String {
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(1, width - count)) }
}

let store = KeyValueStore()
let audited = AuditedContext()
let screen = SettingsScreen()

/// The steps, one after another. Each gets a group and joins it for every callback it waits for; the driver, on a
/// background thread, waits for the group before the next step. The main queue stays free for `.main` callbacks.
let steps: [(String, @Sendable (DispatchGroup) -> Void)] = [
    (
        "1. completions where the caller asks",
        { group in
            group.enter()
            store.setValue("dark", forKey: "theme", context: .utility) { previous in
                show("   setValue, context: .utility", "previous \(previous ?? "nil"), on \(place(store))")
                group.leave()
            }
            group.enter()
            store.value(forKey: "theme") { value in  // the default: .main
                show("   value, context: .main (default)", "\(value ?? "nil"), on \(place(store))")
                group.leave()
            }
            group.enter()
            store.keys(context: .custom(audited)) { keys in
                show("   keys, context: .custom(audited)", "\(keys), \(audited.count.withLock { $0 }) audited block(s)")
                group.leave()
            }
        }
    ),
    (
        "2. .direct: the completion runs where the result is made",
        { group in
            group.enter()
            store.value(forKey: "theme", context: .direct) { value in
                show("   value, context: .direct", "\(value ?? "nil"), on \(place(store)), no hop at all")
                group.leave()
            }
        }
    ),
    (
        "3. piggybacking: set-up and clean-up in the store's context, then one hop",
        { group in
            // Without piggybacking: the store hops to .utility to deliver, the caller hops again to .main: two hops.
            // With it: the caller passes .direct, does its thread-safe set-up (parse, validate) and clean-up (count
            // the request) right on the store's queue, where the value already is, and hops once, to .main.
            let lookups = LockedBox(0)
            group.enter()
            store.value(forKey: "theme", context: .direct) { value in
                let parsed = (value ?? "light").uppercased()  // set-up, on the store's queue
                lookups.withLock { $0 += 1 }  // clean-up, on the store's queue
                show("   set-up and clean-up", "on \(place(store))")
                Exec.main.invoke {
                    show("   then the one hop", "\(parsed) shown on \(place(store)), \(lookups.withLock { $0 }) lookup")
                    group.leave()
                }
            }
        }
    ),
    (
        "4. invoke(_:with:) on .direct: a plain call",
        { group in
            let completion: @Sendable (String) -> Void = { value in show("   .direct.invoke(_:with:)", value) }
            Exec.direct.invoke(completion, with: "ran inline, before invoke returned; nothing allocated")
            show("   after the call", "returned after the completion ran")
        }
    ),
    (
        "5. a @MainActor caller sets its state in the completion",
        { group in
            Exec.main.invoke(group: group) {
                MainActor.assumeIsolated {  // the driver is not main-actor code; a real screen would already be
                    group.enter()
                    screen.reload(from: store) {
                        show("   SettingsScreen.theme", "\(screen.theme), set on \(place(store))")
                        group.leave()
                    }
                }
            }
        }
    ),
]

Exec.utility.invoke {
    for (title, step) in steps {
        print(title)
        let group = DispatchGroup()
        step(group)
        if group.wait(timeout: .now() + 10) == .timedOut {
            print("   timed out")
            exit(1)
        }
    }
    print("done")
    exit(0)
}
dispatchMain()  // services the main queue, where .main completions run, until exit(0)

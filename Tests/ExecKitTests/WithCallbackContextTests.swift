// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Testing

/// *Bridging to Swift Concurrency*: `withCallback` "passes ``Exec/direct`` as the context, so the caller resumes from
/// wherever the API delivers, with no extra hop" (issue #32), in both forms: with and without a timeout.
@Suite struct WithCallbackContextTests {
    /// Whether `context` is `.direct`.
    private static func isDirect(_ context: Exec) -> Bool {
        if case .direct = context { return true }
        return false
    }

    // Guarantees: G-withcallback-direct
    @Test func theFormWithoutATimeoutPassesDirect() async throws {
        let passedDirect = try await withCallback { context, completion in
            completion(Self.isDirect(context))
        }
        #expect(passedDirect, "withCallback passed another context than .direct")
    }

    // Guarantees: G-withcallback-direct
    @Test func theFormWithATimeoutPassesDirect() async throws {
        let passedDirect = try await withCallback(timeout: .seconds(60)) { context, completion in
            completion(Self.isDirect(context))
        }
        #expect(passedDirect, "withCallback(timeout:) passed another context than .direct")
    }

    /// What `.direct` means for the API: a completion it delivers with `context.invoke` runs inside that call, on the
    /// API's own thread, with no hop to another queue first. (Run elsewhere, it would be on another thread, or on the
    /// same one only after the API's block had returned.)
    // Guarantees: G-withcallback-direct
    @Test func anAPIDeliveringThroughTheContextCompletesInsideItsOwnCall() async throws {
        let (sameThread, insideTheCall) = try await withCallback {
            (context, completion: @escaping @Sendable ((Bool, Bool)) -> Void) in
            DispatchQueue.global().async {
                let delivering = ThreadID.current
                let inside = LockedBox(true)
                context.invoke { completion((ThreadID.current == delivering, inside.withLock { $0 })) }
                inside.withLock { $0 = false }
            }
        }
        #expect(sameThread, "the completion was moved off the API's thread")
        #expect(insideTheCall, "the completion ran after the API's call of it had returned")
    }
}

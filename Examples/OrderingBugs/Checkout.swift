// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// The exploration example: a checkout that reserves stock on one queue and charges a card on another, then reports
// on the caller's context. Its first version has an ordering bug that the order work is scheduled in hides; its tests
// (OrderingBugsTests) find it with `TestCoordinator.explore` and hold the fix to every ordering.

public import ExecKit

/// What a checkout reports: the order's state once both steps have answered.
public enum CheckoutResult: Equatable, Sendable {
    case paid
    case failed(reason: String)
}

/// Reserves stock (on `stock`) and charges the card (on `payments`) at the same time, then calls `completion` once,
/// on `client`.
///
/// Each step answers on `client`. The first version (`waitsForBothAnswers: false`) reports as soon as the *charge*
/// answers, assuming the reservation, sent first, has answered already: true in the order the two blocks were
/// scheduled, false when the stock queue is slower. The fix waits for both answers, whichever comes last.
public final class Checkout: Sendable {
    private let stock: Exec
    private let payments: Exec
    private let client: Exec
    /// The state of one checkout, touched on `client` only (the lock satisfies `Sendable`; it is never contended).
    private let state = LockedBox(State())

    private struct State {
        var reserved: Bool?
        var charged: Bool?
        var reported = false
    }

    /// Whether the fix is on: report only once *both* answers are in, whichever comes last.
    private let waitsForBothAnswers: Bool

    /// A checkout whose steps run on `stock` and `payments` and answer on `client`; `waitsForBothAnswers` chooses the
    /// fixed version.
    public init(stock: Exec, payments: Exec, client: Exec, waitsForBothAnswers: Bool) {
        self.stock = stock
        self.payments = payments
        self.client = client
        self.waitsForBothAnswers = waitsForBothAnswers
    }

    /// Starts the checkout; `inStock` and `cardAccepted` are what the two services will answer.
    public func start(
        inStock: Bool, cardAccepted: Bool, completion: @escaping @Sendable (CheckoutResult) -> Void
    ) {
        stock.invoke {
            self.client.invoke { self.answered(reserved: inStock, completion: completion) }
        }
        payments.invoke {
            self.client.invoke { self.answered(charged: cardAccepted, completion: completion) }
        }
    }

    private func answered(
        reserved: Bool? = nil, charged: Bool? = nil, completion: @Sendable (CheckoutResult) -> Void
    ) {
        let result: CheckoutResult? = state.withLock { state in
            if let reserved { state.reserved = reserved }
            if let charged { state.charged = charged }
            guard !state.reported else { return nil }
            if waitsForBothAnswers {
                guard let reserved = state.reserved, let charged = state.charged else { return nil }
                state.reported = true
                return Self.result(reserved: reserved, charged: charged)
            }
            // The first version: the charge's answer decides, reading the reservation as it stands.
            guard let charged = state.charged else { return nil }
            state.reported = true
            return Self.result(reserved: state.reserved ?? false, charged: charged)
        }
        if let result { completion(result) }
    }

    private static func result(reserved: Bool, charged: Bool) -> CheckoutResult {
        if !reserved { return .failed(reason: "out of stock") }
        return charged ? .paid : .failed(reason: "card declined")
    }
}

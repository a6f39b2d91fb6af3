// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

// The article's "Answers out of order" (ExecTesting.docc/FindingOrderingBugs.md), verbatim: the wrong version fails
// under exploration, and its fix passes in every ordering.

/// Sends requests to services, each on a serial queue of its own, and keeps their answers on `main` in the order
/// sent. (Wrong: see below.)
final class ServiceClient: Sendable {
    private let main: Exec
    private let received = LockedBox<[String]>([])

    init(main: Exec) { self.main = main }

    /// The answers; read them on `main`.
    var answers: [String] { received.withLock { $0 } }

    func send(_ request: String, to service: Exec) {
        service.invoke {
            let answer = "answer to \(request)"
            self.main.invoke { self.received.withLock { $0.append(answer) } }
        }
    }
}

/// Sends requests to services, each on a serial queue of its own, and keeps their answers on `main` in the order
/// sent, whatever order they arrive in.
final class OrderedServiceClient: Sendable {
    private let main: Exec
    private let state = LockedBox((sent: 0, next: 0, early: [Int: String](), answers: [String]()))

    init(main: Exec) { self.main = main }

    var answers: [String] { state.withLock { $0.answers } }

    func send(_ request: String, to service: Exec) {
        let number = state.withLock { state in
            defer { state.sent += 1 }
            return state.sent
        }
        service.invoke {
            let answer = "answer to \(request)"
            self.main.invoke {
                self.state.withLock { state in
                    state.early[number] = answer
                    while let next = state.early.removeValue(forKey: state.next) {
                        state.answers.append(next)
                        state.next += 1
                    }
                }
            }
        }
    }
}

/// The article's test, verbatim but for the name and `reportFailure`, which fails: exploration finds the order in
/// which "orders" answers before "accounts", and shrinks the run to that one departure.
// Guarantees: G-explore-runs, G-explore-shrinks
@Test func theArticlesServiceClientTestFailsUnderExploration() throws {
    let coordinator = TestCoordinator()
    #expect(answers(of: ServiceClient.init, coordinator) == expectedAnswers, "the fixed order hides it")

    let report = TestCoordinator.explore(.random, iterations: 1_000) { coordinator in
        let client = ServiceClient(main: coordinator.main)
        let accounts = coordinator.serialQueue(named: "accounts")
        client.send("a", to: accounts)
        client.send("b", to: coordinator.serialQueue(named: "orders"))
        client.send("c", to: accounts)
        coordinator.runUntilIdle()
        try #require(client.answers == ["answer to a", "answer to b", "answer to c"])
    } reportFailure: { _ in
    }
    let failure = try #require(report.failure)
    #expect(failure.departures.count == 1)
    #expect(failure.departures.first?.contains("block on \"orders\"") == true)
}

// Guarantees: G-explore-exhaustive, G-explore-example-figures
@Test func theOrderedClientKeepsTheSendOrderInEveryOrdering() {
    let report = TestCoordinator.explore(.exhaustive, iterations: 1_000) { coordinator in
        let received = answers(of: OrderedServiceClient.init, coordinator)
        if received != expectedAnswers { throw AnswersOutOfOrder(answers: received) }
    }
    #expect(report.coveredEveryOrdering)
    #expect(report.runs == 15, "the article gives the count")
}

let expectedAnswers = ["answer to a", "answer to b", "answer to c"]

struct AnswersOutOfOrder: Error {
    let answers: [String]
}

/// What the test needs of either client.
protocol RequestSender: Sendable {
    var answers: [String] { get }
    func send(_ request: String, to service: Exec)
}

extension ServiceClient: RequestSender {}
extension OrderedServiceClient: RequestSender {}

/// The article's test as a function: sends "a" and "c" to "accounts" and "b" to "orders", and returns the answers.
func answers(of makeClient: (Exec) -> some RequestSender, _ coordinator: TestCoordinator) -> [String] {
    let client = makeClient(coordinator.main)
    let accounts = coordinator.serialQueue(named: "accounts")
    client.send("a", to: accounts)
    client.send("b", to: coordinator.serialQueue(named: "orders"))
    client.send("c", to: accounts)
    coordinator.runUntilIdle()
    return client.answers
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

// The article's "Actor reentrancy" (ExecTesting.docc/FindingOrderingBugs.md), verbatim: the wrong version fails under
// exploration, and its fix passes in every ordering. The account runs on a simulated serial queue, so its jobs are
// pieces of work that exploration orders, with the tasks' jobs and the clock's wake-ups.

/// Asks a server whether to approve a payment; the answer takes a second.
struct FraudCheck: Sendable {
    let clock: any Clock<Duration>

    func approves(_ amount: Int) async -> Bool {
        try? await clock.sleep(for: .seconds(1))
        return amount <= 1_000
    }
}

/// A bank account that pays what the fraud check approves and the balance covers. (Wrong: see below.)
actor Account {
    private let queue: Exec
    private let fraudCheck: FraudCheck
    private(set) var balance: Int
    nonisolated var unownedExecutor: UnownedSerialExecutor { queue.unownedSerialExecutor }

    init(balance: Int, queue: Exec, fraudCheck: FraudCheck) {
        self.balance = balance
        self.queue = queue
        self.fraudCheck = fraudCheck
    }

    @discardableResult
    func withdraw(_ amount: Int) async -> Bool {
        guard balance >= amount else { return false }
        guard await fraudCheck.approves(amount) else { return false }
        balance -= amount
        return true
    }
}

/// A bank account that pays what the fraud check approves and the balance covers, however many payments overlap.
actor CheckedAccount {
    private let queue: Exec
    private let fraudCheck: FraudCheck
    private(set) var balance: Int
    nonisolated var unownedExecutor: UnownedSerialExecutor { queue.unownedSerialExecutor }

    init(balance: Int, queue: Exec, fraudCheck: FraudCheck) {
        self.balance = balance
        self.queue = queue
        self.fraudCheck = fraudCheck
    }

    @discardableResult
    func withdraw(_ amount: Int) async -> Bool {
        guard await fraudCheck.approves(amount) else { return false }
        guard balance >= amount else { return false }  // checked after the await, with none before the change
        balance -= amount
        return true
    }
}

/// The article's test, verbatim but for the name and `reportFailure`, which fails: exploration finds the order in
/// which the card payment reaches the account while the first withdrawal waits for its fraud check. The actors' jobs
/// are work on their simulated queues, and exploration orders them as it orders blocks.
// Guarantees: G-explore-actor-jobs, G-explore-runs
@Test func theArticlesAccountTestFailsUnderExploration() async throws {
    let coordinator = TestCoordinator()
    #expect(await balance(of: Account.init, coordinator) == 20, "the fixed order hides it")

    let report = await TestCoordinator.explore(.random, iterations: 1_000) { coordinator in
        let account = Account(
            balance: 100, queue: coordinator.serialQueue(named: "account"),
            fraudCheck: FraudCheck(clock: coordinator.clock))
        coordinator.task { await account.withdraw(80) }  // at a cash machine
        coordinator.runUntilIdle()  // as far as the fraud check, which answers in a second
        coordinator.task {  // a card payment, a second later
            try await coordinator.clock.sleep(for: .seconds(1))
            await account.withdraw(80)
        }
        coordinator.advance(by: .seconds(2))
        let balance = coordinator.task { await account.balance }
        coordinator.runUntilIdle()
        try #require(await balance.value >= 0)
    } reportFailure: { _ in
    }
    let failure = try #require(report.failure)
    #expect(failure.error.contains("Expectation failed: await balance.value >= 0"))
    #expect(failure.departures.count == 1, "\(failure.departures)")

    // The failure's schedule replays it, on a coordinator of its own.
    let replayed = TestCoordinator(ordering: .replay(failure.schedule))
    #expect(await balance(of: Account.init, replayed) == -60)
}

// Guarantees: G-explore-actor-jobs, G-explore-exhaustive, G-explore-example-figures
@Test func theCheckedAccountIsNeverOverdrawnInAnyOrdering() async {
    let report = await TestCoordinator.explore(.exhaustive, iterations: 1_000) { coordinator in
        let balance = await balance(of: CheckedAccount.init, coordinator)
        if balance != 20 { throw Overdrawn(balance: balance) }
    }
    #expect(report.coveredEveryOrdering)
    #expect(report.runs == 52, "the article gives the count")
}

struct Overdrawn: Error {
    let balance: Int
}

/// What the test needs of either account.
protocol PayingAccount: Actor {
    var balance: Int { get }
    @discardableResult func withdraw(_ amount: Int) async -> Bool
}

extension Account: PayingAccount {}
extension CheckedAccount: PayingAccount {}

/// The article's test as a function: 100 in the account, 80 withdrawn at once and 80 a second later; returns the
/// balance.
func balance(
    of makeAccount: (Int, Exec, FraudCheck) -> some PayingAccount, _ coordinator: TestCoordinator
) async -> Int {
    let account = makeAccount(100, coordinator.serialQueue(named: "account"), FraudCheck(clock: coordinator.clock))
    coordinator.task { await account.withdraw(80) }
    coordinator.runUntilIdle()
    coordinator.task {
        try await coordinator.clock.sleep(for: .seconds(1))
        await account.withdraw(80)
    }
    coordinator.advance(by: .seconds(2))
    let balance = coordinator.task { await account.balance }
    coordinator.runUntilIdle()
    return await balance.value
}

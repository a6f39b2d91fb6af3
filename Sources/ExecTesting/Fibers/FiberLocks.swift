// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecDispatch
import ExecKit
@_spi(ExecTesting) import ExecMutex
import Synchronization

/// Which thread of an exploring coordinator holds each lock taken while its concurrent blocks run on fibers
/// (``Fiber``), and which fibers wait for one. Only one thread runs at a time, so a fiber never really waits for a lock
/// that another fiber holds: it parks until that fiber lets go, and is no choice for the exploration meanwhile.
///
/// The runner (running a serial queue's block, whole) cannot park. When it wants a lock a parked fiber holds, it runs
/// that fiber on, past the exploration's choices, until it lets go. That leaves no ordering out when the runner's
/// block has done nothing other work sees before it asked (the wait then looks, to everything else, like a later
/// start, which the exploration tries as well); otherwise the run no longer claims to cover every ordering
/// (``CoordinatorStorage/leaveOrderingsOut()``). A cycle of waits among fibers fails the run as a deadlock once nothing else is left to
/// run; one that closes on the runner stops the program with a message, since the runner's block cannot be unwound.
final class FiberLocks: LockObserver, @unchecked Sendable {
    /// Who holds a lock: a fiber, or (`nil`) the runner's thread.
    private typealias Holder = (fiber: Fiber?, count: Int)

    private struct State {
        /// The fibers started and not finished.
        var live: [ObjectIdentifier: Fiber] = [:]
        /// Each lock held, by whom, and how many times (a recursive lock).
        var holders: [ObjectIdentifier: Holder] = [:]
        /// Each lock's waiting fibers, in the order they came.
        var waiters: [ObjectIdentifier: [Fiber]] = [:]
    }

    private let state = LockedBox(State(), observed: false)
    /// How many fibers are started and not finished: while none is, the runner needs no watch on its locks.
    private let liveCount = Atomic(0)
    /// Whether the runner's block has done something other work sees (an ExecKit call onto the coordinator, a lock): a
    /// wait from then on could hide an ordering. Touched only by the thread holding the baton.
    private var runnerActed: Bool { runnerPoints > 0 }
    /// How many calls onto the coordinator and lock acquisitions the runner's block has made so far. Touched only by
    /// the thread holding the baton.
    private(set) var runnerPoints = 0
    /// How many threads are running a fiber on to take a lock it holds (``runHolders(of:for:)``): while one is, a
    /// fiber that waits for a lock the runner holds closes a cycle. Touched only by the thread holding the baton.
    private var forcing = 0
    /// The serial queues that threads waiting (in ``runHolders(of:for:)``) for a fiber's lock stand in. Touched only
    /// by the thread holding the baton.
    private var heldByWaiters: [SimulatedQueue] = []

    /// When a fiber run on for a waiting thread enters `queue` (an inline `invokeSync`): how the two would wait for each
    /// other for real, if that thread stands in it; `nil` otherwise.
    func cycleEntering(_ queue: SimulatedQueue, from fiber: Fiber) -> String? {
        guard forcing > 0, heldByWaiters.contains(where: { $0 === queue }) else { return nil }
        return "\(fiber.description) calls invokeSync onto \"\(queue.name)\", where work waits for a lock the block "
            + "holds: for real, each would wait for the other"
    }

    /// Whether a fiber is started and not finished (one parked part-way may hold a lock).
    var hasLiveFibers: Bool { liveCount.load(ordering: .acquiring) > 0 }

    func started(_ fiber: Fiber) {
        state.withLock { $0.live[ObjectIdentifier(fiber)] = fiber }
        liveCount.add(1, ordering: .releasing)
    }

    func finished(_ fiber: Fiber) {
        state.withLock { _ = $0.live.removeValue(forKey: ObjectIdentifier(fiber)) }
        liveCount.subtract(1, ordering: .releasing)
    }

    /// Before `fiber`'s thread takes `mutex`: an interleaving point; then, for a blocking lock another fiber holds, a
    /// wait, parked, until that fiber lets go.
    func willLock(_ mutex: PThreadMutex, blocking: Bool, on fiber: Fiber) {
        guard !fiber.freeRunning else { return }
        guard fiber.mayPark else { return blocking ? runHolders(of: mutex, for: fiber) : () }
        fiber.yield()
        guard blocking else { return }
        let id = ObjectIdentifier(mutex)
        while !fiber.freeRunning, let holder = holder(of: id), holder.fiber !== fiber {
            // The runner holds it: a deadlock if the runner is waiting for this fiber now; otherwise (a lock one block
            // took and a later one lets go) a wait like any other.
            if holder.fiber == nil && forcing > 0 { deadlock(waiter: fiber, chain: []) }
            state.withLock { $0.waiters[id, default: []].append(fiber) }
            fiber.awaitedLock = id
            fiber.park()
            fiber.awaitedLock = nil
        }
    }

    /// Before a thread that cannot park (the runner, or a fiber inside a nested run, `waiter`) takes `mutex`: while a
    /// parked fiber holds it, runs that fiber on (and first, if it waits for another lock, that lock's holder) until
    /// it lets go.
    func runHolders(of mutex: PThreadMutex, for waiter: Fiber?) {
        let id = ObjectIdentifier(mutex)
        var resumes = 0
        while let holder = holder(of: id), let owner = holder.fiber, owner !== waiter {
            // Along the chain of waits from the holder, the first fiber that can run: parked at an interleaving point,
            // or woken from its wait.
            // (A fiber whose rest was discarded has no resumption, and waits for nothing: it can run on too.)
            var chain = [owner]
            while chain.last!.resumption == nil, let awaited = chain.last!.awaitedLock {
                guard let next = self.holder(of: awaited)?.fiber, next !== waiter,
                    !chain.contains(where: { $0 === next })
                else { deadlock(waiter: waiter, chain: chain) }
                chain.append(next)
            }
            resumes += 1
            if resumes > Self.resumeLimit {
                fatalError(
                    "ExecTesting: \(waiter?.description ?? "the work running on the coordinator's thread") waits for "
                        + "a lock held by \(owner.description), which ran on \(Self.resumeLimit) times without letting "
                        + "go: it waits for work that cannot run while the lock is wanted. Real threads would wait "
                        + "forever too.")
            }
            let fiber = chain.last!
            let hides = waiter != nil || runnerActed
            if hides { fiber.storage.leaveOrderingsOut() }
            if let token = fiber.resumption { fiber.storage.cancelResumption(token) }
            // What the fiber does meanwhile is its own doing, not the waiting work's (see ExploringSteps.shifted).
            let waiterShifted = fiber.storage.attribute(shifted: fiber.isShifted)
            // The waiting thread stays in the serial queues it stands in: the fiber entering one would, for real,
            // wait for the waiter, which waits for the fiber.
            let heldBefore = heldByWaiters
            heldByWaiters += EnteredContexts.enteredKeys.compactMap { $0.simulatedObject(as: SimulatedQueue.self) }
                .filter { !$0.isConcurrent }
            forcing += 1
            fiber.resume()
            forcing -= 1
            heldByWaiters = heldBefore
            _ = fiber.storage.attribute(shifted: waiterShifted)
        }
    }

    private func deadlock(waiter: Fiber?, chain: [Fiber]) -> Never {
        let runner = "the work running on the coordinator's thread"
        let name = waiter?.description ?? runner
        let held =
            chain.isEmpty ? runner : chain.map(\.description).joined(separator: ", which waits for a lock held by ")
        let closing = chain.isEmpty ? "" : ", which waits for a lock that \(waiter == nil ? "work" : "block") holds"
        fatalError(
            "ExecTesting: deadlock: \(name) waits for a lock held by \(held)\(closing). Real threads would wait for "
                + "each other forever; take the locks in one order everywhere.")
    }

    /// How many times one wait runs fibers on before it stops the program (a fiber that never lets go).
    static let resumeLimit = 100_000

    /// Before the runner runs a block whole (with this observer installed on its thread, so that its locks are
    /// watched: it waits for none of the fibers', and they wait, parked, for one it still holds when the block returns,
    /// a lock a later block lets go): the block has done nothing yet.
    func runnerStartsBlock() {
        runnerPoints = 0
    }

    /// The runner's block made an ExecKit call onto the coordinator.
    func runnerActs() {
        runnerPoints += 1
    }

    /// Who holds `id`, if anyone does.
    private func holder(of id: ObjectIdentifier) -> Holder? {
        state.withLock { $0.holders[id] }
    }

    /// Once `fiber` (`nil`: the runner) holds `mutex`.
    func didLock(_ mutex: PThreadMutex, by fiber: Fiber?) {
        if fiber?.freeRunning == true { return }
        state.withLock { state in
            let id = ObjectIdentifier(mutex)
            state.holders[id] = (fiber, (state.holders[id]?.count ?? 0) + 1)
        }
    }

    /// Once `fiber` (`nil`: the runner) has let go of `mutex`: when it holds it no more, the fibers waiting for it may
    /// run again.
    func didUnlock(_ mutex: PThreadMutex, by fiber: Fiber?) {
        let id = ObjectIdentifier(mutex)
        let woken = state.withLock { state -> [Fiber] in
            guard let held = state.holders[id], held.fiber === fiber else { return [] }
            if held.count > 1 {
                state.holders[id] = (fiber, held.count - 1)
                return []
            }
            state.holders[id] = nil
            return state.waiters.removeValue(forKey: id) ?? []
        }
        for waiter in woken { _ = waiter.storage.queueResumption(of: waiter) }
    }

    /// The fibers waiting for a lock that nothing will let go of, in words, or `nil` when none does: a fiber whose
    /// chain of waits ends in a cycle, or at a lock that work run whole took and kept. (One that ends at a fiber that
    /// can run, such as one a stop left parked, is no deadlock.)
    func stuckWaits() -> String? {
        let stuck = state.withLock { state -> [(Fiber, Fiber?)] in
            state.waiters.values.flatMap { $0 }.compactMap { waiter in
                var seen: [Fiber] = [waiter]
                var current = waiter
                while let awaited = current.awaitedLock {
                    guard let holder = state.holders[awaited]?.fiber else { return (waiter, nil) }
                    if seen.contains(where: { $0 === holder }) { break }
                    if holder.awaitedLock == nil { return nil }  // it can run on, and let go
                    seen.append(holder)
                    current = holder
                }
                return (waiter, waiter.awaitedLock.flatMap { state.holders[$0]?.fiber })
            }
        }
        guard !stuck.isEmpty else { return nil }
        return stuck.map { waiter, holder in
            "\(waiter.description) waits for a lock held by \(holder?.description ?? "work that ran whole and never let go of it")"
        }.joined(separator: "; ")
    }

    /// Lets every fiber not finished (but the caller's own) run to its end on its own thread, alongside whatever else
    /// runs: the coordinator is gone.
    func releaseAll() {
        let live = state.withLock { state in
            state.waiters = [:]
            state.holders = state.holders.filter { $0.value.fiber == nil }
            return Array(state.live.values)
        }
        let current = ThreadIdentity.current
        for fiber in live where fiber.thread != current { fiber.release() }
    }

    // MARK: LockObserver, on the runner's thread: it waits for none of the fibers' locks.

    override func willLock(_ mutex: PThreadMutex, blocking: Bool) {
        if blocking { runHolders(of: mutex, for: nil) }
    }

    override func didLock(_ mutex: PThreadMutex) {
        didLock(mutex, by: nil)
        runnerActs()
    }

    override func didUnlock(_ mutex: PThreadMutex) { didUnlock(mutex, by: nil) }
}

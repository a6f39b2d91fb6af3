// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims
import CExecTestSupport
import ExecKit
import ExecTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The call-site walk reads nothing but the thread's own stack and memory it has checked, whatever the frame-pointer
/// chain holds (issue #38). Each test breaks the chain on purpose, with the frame-pointer register holding what code
/// built without frame pointers leaves there, schedules work from inside, and expects the scheduling line named.
// Guarantees: G-virtual-call-site-never-crashes, G-virtual-call-site
@Suite struct CallSiteBrokenStackTests {
    /// The word Swift Testing's `__checkFunctionCall` left where a frame pointer should be, in the crash of issue #38:
    /// a heap address with its top bit set, which is no address at all on x86-64.
    static let nonCanonical: UInt = 0x8000_5555_55ec_e568

    @Test(arguments: [0, 1, 8, nonCanonical, UInt.max - 15])
    func aFramePointerThatIsNoAddressEndsTheWalk(framePointer: UInt) {
        #expect(Self.schedulesThrough(framePointer: framePointer))
    }

    @Test func aFramePointerIntoTheHeapEndsTheWalk() {
        // A block of memory whose words look like a frame record pointing onwards to non-addresses, the shape the
        // Runtime module's walk followed into a fault.
        let words = UnsafeMutablePointer<UInt>.allocate(capacity: 64)
        words.initialize(repeating: Self.nonCanonical, count: 64)
        defer { words.deallocate() }
        #expect(Self.schedulesThrough(framePointer: UInt(bitPattern: words)))
    }

    @Test func fakeFrameRecordsOnTheStackAreFollowedOnlyUpwardsAndWithinIt() {
        // Records higher on this thread's stack than the scheduling code: one that points to another, which points
        // to a non-address; one that points to itself; one that points downwards.
        Self.withFakeRecords { records, base in
            records[0] = base + 4 * 8  // -> records[4]
            records[1] = 0x1234  // a return address into nothing
            records[4] = Self.nonCanonical
            records[5] = 0x5678
            records[6] = base + 6 * 8  // a record that points to itself
            records[7] = 0x9abc
            #expect(Self.schedulesThrough(framePointer: base))
            #expect(Self.schedulesThrough(framePointer: base + 6 * 8))
            records[2] = base - 4096  // a record that points downwards
            records[3] = 0x1234
            #expect(Self.schedulesThrough(framePointer: base + 2 * 8))
        }
    }

    @Test func aFakeRecordEnteringAnAsyncFunctionLeadsToNoUncheckedRead() async {
        // The crash of issue #38: a broken chain reached a record whose return address entered an async function, and
        // the word below that record was taken for its async context and read. Here each return address on this
        // task's stack (one of them enters this test's own async function, past its first suspension) is put in a
        // fake record on the thread's stack, with a non-address below the next record.
        await Task.yield()
        let addresses = Self.returnAddressesOnThisStack()
        #expect(addresses.count > 2)
        for address in addresses {
            #expect(Self.schedulesThroughFakeRecord(returningInto: address), "\(address)")
        }
    }

    @Test func anAsyncContextChainIsReadOnlyWhereItIsReadable() {
        // A frame whose async-context slot holds a non-address, an unreadable address, or a chain that runs into one:
        // the resume points end there, and nothing faults.
        let chain = UnsafeMutablePointer<UInt>.allocate(capacity: 4)
        defer { chain.deallocate() }
        chain[0] = UInt(bitPattern: chain) + 16  // parent: the next two words
        chain[1] = 0x1111  // resume point
        chain[2] = 0x10  // parent: unreadable
        chain[3] = 0x2222
        for (slot, expected) in [
            (Self.nonCanonical, [UInt]()), (0x10, []), (UInt(bitPattern: chain), [0x1111, 0x2222]),
        ] {
            withUnsafeTemporaryAllocation(of: UInt.self, capacity: 4) { frame in
                frame.initialize(repeating: 0)
                frame[1] = slot  // the word below the frame record at frame[2]
                let record = UInt(bitPattern: frame.baseAddress!) + 2 * 8
                var points = [UInt](repeating: 0, count: 8)
                let count = execkit_async_resume_points(record, &points, 8)
                #expect(Array(points.prefix(count)) == expected)
            }
        }
        // A chain that loops is cut at the capacity.
        chain[2] = UInt(bitPattern: chain)
        withUnsafeTemporaryAllocation(of: UInt.self, capacity: 4) { frame in
            frame[1] = UInt(bitPattern: chain)
            var points = [UInt](repeating: 0, count: 8)
            #expect(execkit_async_resume_points(UInt(bitPattern: frame.baseAddress!) + 2 * 8, &points, 8) == 8)
        }
        // A frame outside the thread's stack is not read at all.
        var points = [UInt](repeating: 0, count: 8)
        #expect(execkit_async_resume_points(UInt(bitPattern: chain) + 8, &points, 8) == 0)
    }

    @Test func aWindowedReadStopsAtTheFirstPageItCannotRead() throws {
        // Three pages, the first made unreadable: a read in the third takes the 4 KB below it that its page holds, and
        // the 4 KB before those; a read in the second, only its own page's part below it.
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let mapping = try #require(mmap(nil, 3 * pageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        defer { munmap(mapping, 3 * pageSize) }
        #expect(mprotect(mapping, pageSize, PROT_NONE) == 0)
        let start = UInt(bitPattern: mapping)
        let bytes = mapping.assumingMemoryBound(to: UInt8.self)
        for index in pageSize..<(3 * pageSize) { bytes[index] = UInt8(truncatingIfNeeded: index / 8) }
        var window = [UInt8](repeating: 0, count: Int(EXECKIT_READ_BELOW) + 16)
        #expect(execkit_read_memory_below(start + UInt(2 * pageSize + 100), &window) == 4096 + 100)
        #expect(window[Int(EXECKIT_READ_BELOW) - 4096 - 100] == UInt8(truncatingIfNeeded: (2 * pageSize - 4096) / 8))
        #expect(execkit_read_memory_below(start + UInt(pageSize + 100), &window) == 100)
        #expect(window[Int(EXECKIT_READ_BELOW) + 8] == UInt8(truncatingIfNeeded: (pageSize + 108) / 8))
        #expect(execkit_read_memory_below(start + 100, &window) == -1)
    }

    @Test func checkedReadsReadWhatIsThereAndRefuseWhatIsNot() {
        var word: UInt = 0x1234_5678
        var copy: UInt = 0
        #expect(execkit_read_memory(UInt(bitPattern: withUnsafePointer(to: &word) { UnsafeRawPointer($0) }), &copy, 8))
        #expect(copy == 0x1234_5678)
        #expect(!execkit_read_memory(0x10, &copy, 8))
        #expect(!execkit_read_memory(Self.nonCanonical, &copy, 8))
    }

    /// The return addresses on the calling thread's stack, innermost first.
    static func returnAddressesOnThisStack() -> [UInt] {
        var addresses = [UInt](repeating: 0, count: 64)
        var frames = [UInt](repeating: 0, count: 64)
        let count = execkit_capture_return_addresses(&addresses, &frames, 64)
        return Array(addresses.prefix(count))
    }

    /// ``schedulesThrough(framePointer:)`` through a fake record on this thread's stack whose return address is
    /// `address`, and whose next record has a non-address below it, where an async function keeps its context.
    static func schedulesThroughFakeRecord(returningInto address: UInt) -> Bool {
        withFakeRecords { records, base in
            records[0] = base + 4 * 8  // -> records[4]
            records[1] = address
            records[3] = nonCanonical  // below records[4]
            records[4] = nonCanonical
            records[5] = 0x5678
            return schedulesThrough(framePointer: base)
        }
    }

    /// Calls `body` with eight zeroed words on this thread's stack, aligned as frame records are (16 bytes), and
    /// their address.
    static func withFakeRecords<Result>(_ body: (UnsafeMutablePointer<UInt>, UInt) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt.self, capacity: 10) { buffer in
            buffer.initialize(repeating: 0)
            let start = UInt(bitPattern: buffer.baseAddress!)
            let base = (start + 15) & ~15
            return body(buffer.baseAddress! + Int(base - start) / 8, base)
        }
    }

    /// Schedules a block from inside a call whose frame-pointer register holds `framePointer`; true when the
    /// coordinator names the scheduling line.
    static func schedulesThrough(framePointer: UInt) -> Bool {
        let probe = Probe()
        withExtendedLifetime(probe) {
            _ = execkit_test_call_with_frame_pointer(
                framePointer,
                { context in
                    Unmanaged<Probe>.fromOpaque(context!).takeUnretainedValue().schedule()
                }, Unmanaged.passUnretained(probe).toOpaque())
        }
        return probe.namedLine
    }

    /// Schedules a block and notes whether the coordinator named its line.
    private final class Probe: @unchecked Sendable {  // used on one thread
        let coordinator = TestCoordinator()
        var namedLine = false

        func schedule() {
            let line = #line + 1
            coordinator.global.invoke {}
            namedLine = coordinator.pendingWork.first?.callSite?.line == line
            coordinator.runUntilIdle()
        }
    }
}

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

extension Duration {
    /// This duration in whole nanoseconds, rounded toward zero: `0` for a negative duration, `UInt64.max` beyond
    /// `UInt64` nanoseconds (about 584 years). For ExecKit's timer engine and ExecTesting's virtual time.
    ///
    /// - Cost: one 128-by-64-bit division (about 30 instructions on x86-64). `components` splits the same count with
    ///   two 128-bit multiplications, about 260 instructions with the conversion around it (callgrind).
    ///
    /// `_high` and `_low` are the two halves of the 128-bit attosecond count `Duration` stores: public, if
    /// underscored, on a frozen struct, so they are available on every platform and Swift version ExecKit supports,
    /// where the public `attoseconds` needs macOS 26 or later.
    package var saturatingNanoseconds: UInt64 {
        let high = _high
        if high < 0 { return 0 }
        if UInt64(high) >= 1_000_000_000 { return .max }  // the quotient would not fit in 64 bits
        return UInt64(1_000_000_000).dividingFullWidth((UInt64(high), _low)).quotient
    }
}

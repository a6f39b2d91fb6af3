// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

extension Duration {
    /// This duration in whole nanoseconds, for virtual time: negative durations count as zero, and durations beyond
    /// `UInt64` nanoseconds (about 584 years) saturate.
    var clampedNanoseconds: UInt64 {
        if self <= .zero { return 0 }
        let (seconds, attoseconds) = components
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflowSum) = whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        return overflow || overflowSum ? .max : total
    }
}

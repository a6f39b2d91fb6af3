// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

#ifndef CEXECTESTINGSHIMS_H
#define CEXECTESTINGSHIMS_H

#include <stddef.h>
#include <stdint.h>

/// Writes the return addresses of the calling thread's stack, innermost first, into `addresses` (at most `capacity`),
/// skipping the innermost `skip` frames (the capture's own callers inside ExecTesting), and returns how many it wrote.
///
/// It follows the frame-pointer chain, which Swift code keeps, and stops where the chain leaves the thread's stack,
/// stops rising or would run past `capacity`: it reads nothing but the thread's own stack, allocates nothing and
/// takes no lock. Frames of code built without frame pointers end the walk early or are skipped over, so the result
/// is a key for "the same call path as before", not a complete backtrace.
///
/// Cost: a few nanoseconds per frame, plus finding the thread's stack bounds once per thread.
size_t exectesting_capture_return_addresses(uintptr_t *addresses, size_t capacity, size_t skip);

#endif

// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// For ExecKit's tests only: a call whose frame-pointer chain is broken on purpose, the shape of code built without
// frame pointers (issue #38: Swift Testing's `__checkFunctionCall` keeps an argument in the frame-pointer register).

#ifndef CEXECTESTSUPPORT_H
#define CEXECTESTSUPPORT_H

#include <stdint.h>

/// Calls `body(context)` with the frame-pointer register holding `framePointer`, so that a stack walk from inside
/// `body` finds `framePointer` where its caller's frame record should be. Where the architecture is neither x86-64 nor
/// arm64 it calls `body` plainly. Returns whether the register was set.
int execkit_test_call_with_frame_pointer(uintptr_t framePointer, void (*body)(void *), void *context);

#endif

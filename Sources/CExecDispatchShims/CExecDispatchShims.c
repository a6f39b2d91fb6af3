// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// Everything but a few variables and one function lives in the headers as static inline functions.

#if !defined(__APPLE__)
#if !defined(_GNU_SOURCE)
#define _GNU_SOURCE  // pthread_getattr_np, defined before any system header is included
#endif
#include <errno.h>
#include <pthread.h>
#include <sys/uio.h>
#include <unistd.h>
#endif

#include "CExecDispatchShims.h"

#if defined(__APPLE__)
// Declared under private names, as the header does for libdispatch, rather than through <pthread.h>: the shim then
// compiles with no SDK (CI cross-compiles it for Apple targets and checks the symbols it references).
extern void *execkit_pthread_self(void) EXECKIT_DISPATCH_SYMBOL(pthread_self);
extern void *execkit_pthread_get_stackaddr_np(void *thread) EXECKIT_DISPATCH_SYMBOL(pthread_get_stackaddr_np);
extern size_t execkit_pthread_get_stacksize_np(void *thread) EXECKIT_DISPATCH_SYMBOL(pthread_get_stacksize_np);
extern int execkit_vm_read_overwrite(unsigned int task, uintptr_t address, uintptr_t size, uintptr_t data,
    uintptr_t *outsize) EXECKIT_DISPATCH_SYMBOL(vm_read_overwrite);
extern unsigned int execkit_mach_task_self EXECKIT_DISPATCH_SYMBOL(mach_task_self_);
#endif

int execkit_main_queue_reader_validated = 0;
int execkit_current_queue_reader_disabled = 0;
int execkit_raw_queue_layout_state = 0;

_Thread_local void *execkit_entered_queue_record = 0;
_Thread_local void *execkit_timer_engine_cache_entry = 0;
_Thread_local void *execkit_running_job_record = 0;
_Thread_local void *execkit_submitting_block_record = 0;
_Thread_local void *execkit_job_capture_target = 0;
_Thread_local void *execkit_lock_observer = 0;

_Thread_local uintptr_t execkit_stack_low = 0;
_Thread_local uintptr_t execkit_stack_high = 0;

void execkit_find_stack_bounds(void) {
    uintptr_t low = 0, high = 0;
#if defined(__APPLE__)
    void *self = execkit_pthread_self();
    high = (uintptr_t)execkit_pthread_get_stackaddr_np(self);
    low = high - (uintptr_t)execkit_pthread_get_stacksize_np(self);
#else
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
        void *base = NULL;
        size_t size = 0;
        if (pthread_attr_getstack(&attributes, &base, &size) == 0) {
            low = (uintptr_t)base;
            high = low + size;
        }
        pthread_attr_destroy(&attributes);
    }
#endif
    if (high == 0) low = high = 1;  // unknown: an empty range, so walks stop at once (and this runs once)
    execkit_stack_low = low;
    execkit_stack_high = high;
}

/// The bytes below `address` that `execkit_read_memory_below` asks for: down to the start of the page before its page
/// (never below address 0).
static uintptr_t execkit_readable_floor(uintptr_t address) {
    uintptr_t const page = 4096;
    uintptr_t const pageStart = address & ~(page - 1);
    return pageStart >= page ? pageStart - page : 0;
}

#if defined(__APPLE__)
bool execkit_read_memory(uintptr_t address, void *buffer, size_t size) {
    uintptr_t copied = 0;
    return execkit_vm_read_overwrite(execkit_mach_task_self, address, size, (uintptr_t)buffer, &copied) == 0
        && copied == size;
}

long execkit_read_memory_below(uintptr_t address, unsigned char *window) {
    unsigned char *const at = window + EXECKIT_READ_BELOW;
    if (!execkit_read_memory(address, at, 16)) return -1;
    uintptr_t const floor = execkit_readable_floor(address), pageStart = address & ~(uintptr_t)4095;
    if (floor < pageStart && execkit_read_memory(floor, at - (address - floor), address - floor)) {
        return (long)(address - floor);
    }
    if (execkit_read_memory(pageStart, at - (address - pageStart), address - pageStart)) return (long)(address - pageStart);
    return 0;
}
#else
// This process's id, for process_vm_readv: getpid is a system call, and a fork's child must not read its parent.
static int execkit_process_id = 0;
static int execkit_memory_reads_refused = 0;
static pthread_once_t execkit_fork_handler_once = PTHREAD_ONCE_INIT;

static void execkit_forget_process_id(void) { __atomic_store_n(&execkit_process_id, 0, __ATOMIC_RELAXED); }
static void execkit_install_fork_handler(void) { pthread_atfork(NULL, NULL, execkit_forget_process_id); }

/// process_vm_readv on this process: the bytes copied, or -1 (after which, if the system refuses the call outright,
/// every later read returns -1 at once).
static ssize_t execkit_read_own_memory(struct iovec const *local, struct iovec const *remote, unsigned long count) {
    if (__atomic_load_n(&execkit_memory_reads_refused, __ATOMIC_RELAXED)) return -1;
    int pid = __atomic_load_n(&execkit_process_id, __ATOMIC_RELAXED);
    if (pid == 0) {
        pthread_once(&execkit_fork_handler_once, execkit_install_fork_handler);
        pid = (int)getpid();
        __atomic_store_n(&execkit_process_id, pid, __ATOMIC_RELAXED);
    }
    ssize_t const copied = process_vm_readv((pid_t)pid, local, count, remote, count, 0);
    if (copied < 0 && (errno == ENOSYS || errno == EPERM)) {
        __atomic_store_n(&execkit_memory_reads_refused, 1, __ATOMIC_RELAXED);
    }
    return copied;
}

bool execkit_read_memory(uintptr_t address, void *buffer, size_t size) {
    struct iovec local = {buffer, size};
    struct iovec remote = {(void *)address, size};
    return execkit_read_own_memory(&local, &remote, 1) == (ssize_t)size;
}

long execkit_read_memory_below(uintptr_t address, unsigned char *window) {
    // In the order that matters: the 16 bytes at `address`, then the rest of its page below it, then the page before,
    // so that the call stops (returning what it copied) at the first part that cannot be read.
    uintptr_t const pageStart = address & ~(uintptr_t)4095, floor = execkit_readable_floor(address);
    unsigned char *const at = window + EXECKIT_READ_BELOW;
    struct iovec local[3] = {
        {at, 16}, {at - (address - pageStart), address - pageStart}, {at - (address - floor), pageStart - floor}};
    struct iovec remote[3] = {
        {(void *)address, 16}, {(void *)pageStart, address - pageStart}, {(void *)floor, pageStart - floor}};
    ssize_t const copied = execkit_read_own_memory(local, remote, 3);
    if (copied < 16) return -1;
    if ((size_t)copied < 16 + (address - pageStart)) return 0;
    if ((size_t)copied < 16 + (address - floor)) return (long)(address - pageStart);
    return (long)(address - floor);
}
#endif

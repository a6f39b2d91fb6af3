// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// The job an ExecKit executor is running on this thread, and the task executor that job's task prefers (ExecKit's
// `ExecutorJobs`), kept in a C thread-local for the reasons EnteredQueueRecord.h gives: an actor's serial executor
// reads it when a task hops in from one of ExecKit's task executors, to learn which task executor the task prefers.
#ifndef EXECKIT_RUNNING_JOB_RECORD_H
#define EXECKIT_RUNNING_JOB_RECORD_H

/// The record of the job this thread runs now (it lives in the frame that runs the job), or null; only ExecKit's
/// `ExecutorJobs` reads or writes it.
extern _Thread_local void *execkit_running_job_record;

/// This thread's running-job record, or null.
static inline void *execkit_running_job(void) {
    return execkit_running_job_record;
}

/// Makes `record` this thread's running-job record (null for none).
static inline void execkit_set_running_job(void *record) {
    execkit_running_job_record = record;
}

/// The block an ExecKit executor is handing to a context on this thread (ExecKit's `DropAwareBlock`), or null: a block
/// that finds itself here was run inside the hand-over, which an executor's `enqueue` must not allow.
extern _Thread_local void *execkit_submitting_block_record;

/// The block being handed to a context on this thread, or null.
static inline void *execkit_submitting_block(void) {
    return execkit_submitting_block_record;
}

/// Makes `block` the block being handed over on this thread (null for none).
static inline void execkit_set_submitting_block(void *block) {
    execkit_submitting_block_record = block;
}

#endif

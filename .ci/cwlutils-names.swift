// Calls written as a CwlUtils client writes them: each line must fail to compile with a message that names what to
// write in ExecKit instead (.ci/check-cwlutils-names.sh checks the messages). Not part of any target.
import Dispatch
import ExecKit
import ExecMutex
import ExecTesting

let interval: DispatchTimeInterval = .seconds(1)
let timer = Exec.main.singleTimer(interval: interval) {}
let periodic = Exec.main.periodicTimer(interval: interval) {}
let global = Exec.global
let globalUtility = Exec.global(qos: .utility)
let immediate = Exec.main.type.isImmediateInCurrentContext
let asynchronous = Exec.main.type.isAsyncInCurrentContext
let always = Exec.main.type.isImmediateAlways
let potentially = Exec.main.type.isPotentiallyAsync
let nonReentrant = Exec.main.type.isNonReentrant
let concurrent = Exec.utility.isConcurrent
let serial = Exec.utility.isSerial
let contextImmediate = Exec.utility.isImmediateInCurrentContext
struct Mine: CustomExecutionContext {}
let coordinator = DebugContextCoordinator()
let serializing = SerializingContext(concurrentContext: .utility)
let mutexType: PThreadMutex.PThreadMutexType = .recursive
let unfair: UnfairLock? = nil
// Still compiles, unchanged: a literal interval is a Duration (the check names this line).
let literal = Exec.main.singleTimer(interval: .seconds(1)) {}

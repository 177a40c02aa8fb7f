#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A per-thread queue of jobs that keeps every `.immediate` continuation off the caller's stack.
///
/// The first immediate job on a thread runs inline and then drains whatever it (and the jobs it
/// enqueues) made ready, in a loop. A job submitted while the thread is already draining is appended
/// instead of being called, so chains and cascades of any length use constant stack depth.
@usableFromInline
final class Trampoline {
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var isDraining = false

    /// Runs `job` now if this thread is not draining, otherwise queues it behind the current job.
    @usableFromInline
    static func run(_ job: @escaping @Sendable () -> Void) {
        current.run(job)
    }

    private func run(_ job: @escaping @Sendable () -> Void) {
        if isDraining {
            jobs.append(job)
            return
        }
        isDraining = true
        job()
        while head < jobs.count {
            let next = jobs[head]
            jobs[head] = Trampoline.finished
            head += 1
            next()
            if head >= 4096 && head * 2 >= jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
        }
        jobs.removeAll(keepingCapacity: jobs.count <= 4096)
        head = 0
        isDraining = false
    }

    private static let finished: @Sendable () -> Void = {}

    private static var current: Trampoline {
        if let raw = pthread_getspecific(trampolineKey) {
            return Unmanaged<Trampoline>.fromOpaque(raw).takeUnretainedValue()
        }
        let trampoline = Trampoline()
        pthread_setspecific(trampolineKey, Unmanaged.passRetained(trampoline).toOpaque())
        return trampoline
    }
}

/// The thread-local slot holding each thread's trampoline; its destructor releases it when the thread exits.
private let trampolineKey: pthread_key_t = {
    var key = pthread_key_t()
    #if canImport(Darwin)
        pthread_key_create(&key) { raw in Unmanaged<Trampoline>.fromOpaque(raw).release() }
    #else
        pthread_key_create(&key) { raw in
            if let raw { Unmanaged<Trampoline>.fromOpaque(raw).release() }
        }
    #endif
    return key
}()

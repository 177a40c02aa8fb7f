// The test file that `FlowKit.docc/TimeAndTesting.md` shows, as it shows it.

import FlowKit
import FlowKitTesting
import Testing

struct Flaky: Error {}

final class Calls: Sendable {
    private let count = LockedState(0)
    func next() -> Int {
        count.withLock {
            $0 += 1; return $0
        }
    }
    var value: Int { count.withLock { $0 } }
}

@Test func retriesAfterEachWaitThenSucceeds() async throws {
    let scheduler = ManualScheduler()
    let calls = Calls()
    let saved = firstly {  // a synchronous closure: the promise form, in an async test
        retry(attempts: 3, backoff: .constant(.seconds(2)), on: scheduler) {
            calls.next() < 3 ? Promise<String>(error: Flaky()) : Promise(value: "saved")
        }
    }
    #expect(calls.value == 1)  // the first attempt runs at once
    #expect(scheduler.nextDeadline == .seconds(2))
    scheduler.advance(by: .seconds(1))
    #expect(calls.value == 1)  // not yet
    scheduler.advance(by: .seconds(1))
    #expect(calls.value == 2)
    scheduler.runUntilIdle()  // the last wait, due at 4 s
    #expect(scheduler.now == .seconds(4))
    #expect(try await saved.value == "saved")
    try scheduler.checkNoPendingWork()
}

@Test func asyncWorkTimesOut() async throws {
    let scheduler = ManualScheduler()
    let never = Promise<Void>.pending().promise
    let work = Task { try await timeout(.seconds(30), on: scheduler) { try await never.value } }
    await scheduler.waitForPendingWork()  // the timeout's timer is registered
    scheduler.advance(by: .seconds(30))
    await #expect(throws: PromiseError.timedOut(after: .seconds(30))) { try await work.value }
    try scheduler.checkNoPendingWork()
}

import FlowKit
import Testing

@Suite struct PromiseCatchTests {
    @Test func catchReceivesTheErrorAndFulfillsItsPromise() async throws {
        let caught = Recorder<String>()
        try await Promise<Int>(error: TestError.boom).catch { caught.append("\($0)") }.value
        #expect(caught.events == ["boom"])
    }

    @Test func catchIsSkippedOnSuccess() async throws {
        let caught = Counter()
        try await Promise(value: 1).catch { _ in caught.increment() }.value
        #expect(caught.current == 0)
    }

    @Test func catchSkipsCancellationByDefault() async {
        let caught = Counter()
        let (promise, _) = Promise<Int>.pending()
        let handled = promise.catch { _ in caught.increment() }
        promise.cancel()
        #expect(await rejection(of: handled) is CancellationError)
        #expect(caught.current == 0)
    }

    @Test func catchWithAllErrorsPolicySeesCancellation() async throws {
        let caught = Recorder<Bool>()
        let (promise, _) = Promise<Int>.pending()
        let handled = promise.catch(policy: .allErrors) { caught.append($0.isCancellation) }
        promise.cancel()
        try await handled.value
        #expect(caught.events == [true])
    }

    @Test func recoverWithAValueContinuesTheChain() async throws {
        let result = Promise<Int>(error: TestError.boom).recover { _ in 0 }.map { $0 + 1 }
        #expect(try await result.value == 1)
    }

    @Test func recoverWithAPromiseContinuesTheChain() async throws {
        let result = Promise<Int>(error: TestError.boom).recover { _ in Promise(value: 5) }
        #expect(try await result.value == 5)
    }

    @Test func recoverCanRethrowToKeepTheChainRejected() async {
        let result = Promise<Int>(error: TestError.boom).recover { error -> Int in
            throw TestError.numbered(2)
        }
        #expect(await rejection(of: result) as? TestError == .numbered(2))
    }

    @Test func recoverPassesValuesThrough() async throws {
        let ran = Counter()
        let result = Promise(value: 3).recover { _ -> Int in
            ran.increment()
            return 0
        }
        #expect(try await result.value == 3)
        #expect(ran.current == 0)
    }

    @Test func recoverDoesNotResumeACancelledChainByDefault() async {
        let (promise, _) = Promise<Int>.pending()
        let recovered = promise.recover { _ in 1 }
        promise.cancel()
        #expect(await rejection(of: recovered) is CancellationError)
    }

    @Test func mapErrorReplacesTheError() async {
        let result = Promise<Int>(error: TestError.boom).mapError { _ in TestError.numbered(3) }
        #expect(await rejection(of: result) as? TestError == .numbered(3))
    }

    @Test func mapErrorLeavesCancellationAlone() async {
        let result = Promise<Int>(error: CancellationError()).mapError { _ in TestError.boom }
        #expect(await rejection(of: result) is CancellationError)
    }

    @Test func errorsFromAnyStepReachOneCatch() async throws {
        for failingStep in 0..<3 {
            let caught = Recorder<TestError>()
            try await Promise(value: 0)
                .map { value -> Int in if failingStep == 0 { throw TestError.numbered(0) } else { return value } }
                .then { value -> Promise<Int> in
                    failingStep == 1 ? Promise(error: TestError.numbered(1)) : Promise(value: value)
                }
                .done { _ in if failingStep == 2 { throw TestError.numbered(2) } }
                .catch { caught.append($0 as? TestError ?? .boom) }
                .value
            #expect(caught.events == [.numbered(failingStep)])
        }
    }
}

@Suite struct PromiseEnsureTests {
    @Test func ensureRunsOnSuccessAndPassesTheValueOn() async throws {
        let ran = Counter()
        #expect(try await Promise(value: 4).ensure { ran.increment() }.value == 4)
        #expect(ran.current == 1)
    }

    @Test func ensureRunsOnFailureAndPassesTheErrorOn() async {
        let ran = Counter()
        let result = Promise<Int>(error: TestError.boom).ensure { ran.increment() }
        #expect(await rejection(of: result) as? TestError == .boom)
        #expect(ran.current == 1)
    }

    @Test func ensureRunsWhenTheChainIsCancelled() async {
        let ran = Counter()
        let (promise, _) = Promise<Int>.pending()
        let ensured = promise.ensure { ran.increment() }
        promise.cancel()
        #expect(await rejection(of: ensured) is CancellationError)
        #expect(ran.current == 1)
    }

    @Test func finallyRunsAtTheEndOfAChain() async throws {
        let (done, resolver) = Promise<Void>.pending()
        Promise<Int>(error: TestError.boom).catch { _ in }.finally { resolver.fulfill() }
        try await done.value
    }

    @Test func tapSeesTheResultWithoutChangingIt() async throws {
        let seen = Recorder<String>()
        #expect(try await Promise(value: 1).tap { seen.append("\($0)") }.value == 1)
        let failed = Promise<Int>(error: TestError.boom).tap { seen.append("\($0)") }
        #expect(await rejection(of: failed) as? TestError == .boom)
        #expect(seen.events == ["success(1)", "failure(FlowKitTests.TestError.boom)"])
    }

    @Test func getSeesTheValueAndPassesItOnButSkipsARejection() async throws {
        let seen = Recorder<Int>()
        #expect(try await Promise(value: 7).get { seen.append($0) }.value == 7)
        let failed = Promise<Int>(error: TestError.boom).get { seen.append($0) }
        #expect(await rejection(of: failed) as? TestError == .boom)
        #expect(seen.events == [7], "get runs only for a value")
    }

    @Test func aThrowFromGetRejectsTheChain() async {
        let checked = Promise(value: 7).get { _ in throw TestError.boom }
        #expect(await rejection(of: checked) as? TestError == .boom)
    }

    @Test func validatePassesGoodValuesAndRejectsBadOnes() async throws {
        #expect(try await Promise(value: [1]).validate { !$0.isEmpty }.value == [1])
        let bad = Promise(value: [Int]()).validate { !$0.isEmpty }
        #expect(await rejection(of: bad) as? PromiseError == .validationFailed)
    }

    @Test func compactMapUnwrapsOrRejectsWithMissingValue() async throws {
        #expect(try await Promise(value: [3, 4]).compactMap { $0.first }.value == 3)
        let empty = Promise(value: [Int]()).compactMap { $0.first }
        #expect(await rejection(of: empty) as? PromiseError == .missingValue)
    }
}

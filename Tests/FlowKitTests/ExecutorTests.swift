import FlowKit
import Foundation
import Testing

@Suite struct ExecutorTests {
    @Test func theDefaultExecutorRunsWithoutAMainRunLoop() async throws {
        #expect(try await Promise(value: 1).map { $0 + 1 }.value == 2)
    }

    @Test func theDefaultExecutorIsSerialAndKeepsAttachmentOrder() async throws {
        #expect(FlowExecutor.flowDefault.description == "queue(FlowKit.default)")
        let order = Recorder<Int>()
        let active = Counter()
        let overlapping = Counter()
        let (promise, resolver) = Promise<Void>.pending()
        let handlers = (0..<100).map { index in
            promise.done(on: .flowDefault) {
                if active.increment() > 1 { overlapping.increment() }
                order.append(index)
                active.decrement()
            }
        }
        resolver.fulfill()
        _ = try await firstly { when(fulfilled: handlers) }.value
        #expect(order.events == Array(0..<100))
        #expect(overlapping.current == 0)
    }

    @Test func immediateRunsOnTheSettlingThread() throws {
        let (promise, resolver) = Promise<Int>.pending()
        let settlingThread = Recorder<String>()
        let observed = promise.map(on: .immediate) { _ in "\(Thread.current)" }
        settlingThread.append("\(Thread.current)")
        resolver.fulfill(0)
        #expect(try observed.result?.get() == settlingThread.events.first)
    }

    @Test func immediateQueuesNestedJobsBehindTheCurrentOne() {
        let order = Recorder<String>()
        FlowExecutor.immediate.execute {
            FlowExecutor.immediate.execute { order.append("nested") }
            order.append("outer")
        }
        #expect(order.events == ["outer", "nested"])
    }

    @Test func customExecutorsReceiveEveryJob() async throws {
        let jobs = Counter()
        let executor = FlowExecutor.custom { job in
            jobs.increment()
            DispatchQueue.global().async(execute: job)
        }
        _ = try await Promise(value: 1).map(on: executor) { $0 }.done(on: executor) { _ in }.value
        #expect(jobs.current == 2)
    }

    @Test func executorsDescribeThemselves() {
        #expect(FlowExecutor.immediate.description == "immediate")
        #expect(FlowExecutor.main.description.hasPrefix("queue("))
        let queue = OperationQueue()
        queue.name = "named"
        #expect(FlowExecutor.operationQueue(queue).description == "operationQueue(named)")
        #expect(FlowExecutor.custom { $0() }.description == "custom")
    }
}

/// Changes the process-wide defaults, so it runs alone and restores them.
@Suite(.serialized) struct FlowDefaultsTests {
    /// Whether the current job runs inside the executor the test installed.
    @TaskLocal static var inInstalledExecutor = false

    /// Other suites run meanwhile and may hand their own jobs to the installed executor: what is checked is where
    /// this test's job ran, not how many jobs the executor saw.
    @Test func theGlobalDefaultExecutorIsUsedWhenNoneIsGiven() async throws {
        let previous = FlowDefaults.executor
        defer { FlowDefaults.executor = previous }
        FlowDefaults.executor = .custom { job in Self.$inInstalledExecutor.withValue(true) { job() } }
        let result = Promise(value: 2).map { ($0 * 3, Self.inInstalledExecutor) }
        FlowDefaults.executor = previous
        let (value, ranThere) = try await result.value
        #expect(value == 6 && ranThere)
    }
}

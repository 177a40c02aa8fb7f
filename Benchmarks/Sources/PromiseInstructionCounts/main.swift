// The promise rows' loops, without package-benchmark, for counting instructions with callgrind (repeatable on
// a shared machine, unlike wall time). `callgrind-promise.sh` runs each mode at two sizes and prints the
// difference per operation, which leaves out start-up and the benchmark's fixed costs.
import Dispatch
import FlowKit

@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

let serial = DispatchQueue(label: "callgrind.serial")
let serialExecutor = FlowExecutor.queue(serial)
let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]) else {
    fatalError("usage: PromiseInstructionCounts rt|rawrt|imm|chain|then|rawchain COUNT")
}

switch arguments[1] {
case "rt":
    for index in 0..<count {
        let (promise, resolver) = Promise<Int>.pending()
        blackHole(promise.map(on: serialExecutor) { $0 &+ 1 })
        resolver.fulfill(index)
    }
    serial.sync {}
case "rawrt":
    for index in 0..<count {
        let continuation: @Sendable (Int) -> Void = { blackHole($0 &+ 1) }
        serial.async { continuation(index) }
    }
    serial.sync {}
case "imm":
    for index in 0..<count {
        let (promise, resolver) = Promise<Int>.pending()
        blackHole(promise.map(on: .immediate) { $0 &+ 1 })
        resolver.fulfill(index)
    }
case "chain", "then":
    let (root, resolver) = Promise<Int>.pending()
    var end = root
    if arguments[1] == "chain" {
        for _ in 0..<count { end = end.map(on: serialExecutor) { $0 &+ 1 } }
    } else {
        for _ in 0..<count { end = end.then(on: serialExecutor) { Promise(value: $0 &+ 1) } }
    }
    let done = DispatchSemaphore(value: 0)
    blackHole(end.done(on: .immediate) { _ in done.signal() })
    resolver.fulfill(0)
    done.wait()
    precondition(end.result.map { (try? $0.get()) == count } == true)
case "rawchain":
    let done = DispatchSemaphore(value: 0)
    @Sendable func hop(_ remaining: Int, _ value: Int) {
        if remaining == 0 {
            blackHole(value)
            done.signal()
        } else {
            serial.async { hop(remaining - 1, value &+ 1) }
        }
    }
    hop(count, 0)
    done.wait()
default:
    fatalError("unknown mode \(arguments[1])")
}

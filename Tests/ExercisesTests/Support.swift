import ExampleSupport
import FlowKit
import HealthFlow

/// A thread-safe counter for the exercises' tests.
final class Counter: Sendable {
    private let count = LockedState(0)
    @discardableResult func increment() -> Int {
        count.withLock {
            $0 += 1; return $0
        }
    }
    var value: Int { count.withLock { $0 } }
}

/// A store answered by a scripted policy that counts how many permission sheets it showed.
func countingSheets(
    _ answer: @escaping @Sendable (AuthorizationRequest) -> AuthorizationResponse = { $0.grantingAll }
) -> (ExampleContext, Counter) {
    let sheets = Counter()
    let store = InMemoryHealthStore(
        configuration: ExampleContext.app,
        policy: .scripted { request in
            sheets.increment()
            return answer(request)
        })
    return (ExampleContext(store: store, source: ExampleContext.app.source, now: ExampleContext.fixedNow), sheets)
}

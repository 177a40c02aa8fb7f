// The declarations of the first example in `FlowKit.docc/FlowKit.md`, as the article shows them.

import FlowKit

protocol HeightStore: Sendable {
    func requestAuthorization() -> Promise<Void>
    func save(metres: Double) -> Promise<Void>
}

func saveHeight(_ centimetres: Double, to store: any HeightStore) -> Promise<Void> {
    firstly {
        guard centimetres > 0 else { throw PromiseError.validationFailed }
        return store.requestAuthorization()
    }
    .then { store.save(metres: centimetres / 100) }
    .timeout(.seconds(30))
}

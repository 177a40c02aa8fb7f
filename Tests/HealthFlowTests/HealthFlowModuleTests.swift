import HealthFlow
import Testing

@Test func moduleIsImportable() {
    #expect(String(describing: HealthFlow.self) == "HealthFlow")
}

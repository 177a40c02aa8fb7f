import HealthSync
import Testing

@Test func linksAgainstZlibOneDotSomething() {
    #expect(HealthSync.zlibVersion.hasPrefix("1."))
}

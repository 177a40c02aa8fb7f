import ExampleSupport
import FlowKit
import Foundation
import HealthFlow
import HealthFlowHealthKit
@_spi(Testing) import HealthKitShim
import ReadHeightsExample
import Testing
import WriteHeightExample

/// The seed programs written directly against HealthKit's API run on the shim and print what the HealthFlow
/// ports print.
@Suite struct SeedCodeTests {
    let now = Date(timeIntervalSince1970: 1_792_540_800)

    @Test func healthKitWriteHeightPrintsWhatThePortPrints() async throws {
        let fixture = BridgeFixture()
        let (promise, resolver) = Promise<String>.pending()
        HealthKitHeightWriter(healthStore: fixture.healthStore).writeHeight(centimeters: 172, date: now) {
            line, error in
            if let line { resolver.fulfill(line) } else { resolver.reject(error ?? CancellationError()) }
        }
        let healthKitLine = try await promise.value

        let port = ExampleContext(
            store: InMemoryHealthStore(configuration: StoreUnderTest.app), source: StoreUnderTest.appSource, now: now)
        let (portPromise, portResolver) = Promise<[String]>.pending()
        writeHeightWithCallbacks(172, in: port) { portResolver.resolve($0) }
        let portLines = try await portPromise.value
        #expect([healthKitLine] == portLines)
        #expect(healthKitLine == "Saved! 1.72 m")
        // The sample the seed code saved is in the database, in metres, from the app.
        let saved = try await fixture.store.samples(of: .height)
        #expect(saved.count == 1)
        #expect(saved.first?.source == StoreUnderTest.appSource)
    }

    @Test func healthKitReadHeightsListsWhatThePortLists() async throws {
        let fixture = BridgeFixture()
        // The same three heights, saved through the bridge (shim) and into a plain HealthFlow store.
        let bridged = ExampleContext(store: fixture.store, source: StoreUnderTest.appSource, now: now)
        try await ReadHeightsExample.prepare(bridged)
        let plain = ExampleContext(
            store: InMemoryHealthStore(configuration: StoreUnderTest.app), source: StoreUnderTest.appSource, now: now)
        try await ReadHeightsExample.prepare(plain)

        let (promise, resolver) = Promise<[String]>.pending()
        HealthKitHeightReader(healthStore: fixture.healthStore).readHeights { lines, error in
            if let lines { resolver.fulfill(lines) } else { resolver.reject(error ?? CancellationError()) }
        }
        let healthKitLines = try await promise.value
        let (portPromise, portResolver) = Promise<[String]>.pending()
        readHeightsWithCallbacks(in: plain) { portResolver.resolve($0) }
        let portLines = try await portPromise.value
        #expect(healthKitLines == portLines)
        #expect(healthKitLines.count == 3)
        // The port, run over the bridge, lists the same.
        let (bridgePromise, bridgeResolver) = Promise<[String]>.pending()
        readHeightsWithCallbacks(in: bridged) { bridgeResolver.resolve($0) }
        #expect(try await bridgePromise.value == portLines)
    }
}

import FlowKit
import Foundation
import Testing

@testable import HealthFlow

/// A ``BackedHealthStore`` over ``SegmentedHealthStoreBackend`` remembers the person's answers to permission
/// sheets per app across reopening, as HealthKit does across launches, and never reports an answer it did not keep.
struct SegmentedAuthorizationTests {
    typealias Backend = SegmentedHealthStoreBackendTests

    static let other = HealthAppConfiguration(
        bundleIdentifier: "com.example.other", name: "Other", healthShareUsageDescription: "Reads your data.",
        healthUpdateUsageDescription: "Writes your data.")

    static func store(
        _ backend: SegmentedHealthStoreBackend, app: HealthAppConfiguration = StoreFixture.app,
        policy: AuthorizationPolicy = .denyAll
    ) -> BackedHealthStore<SegmentedHealthStoreBackend> {
        BackedHealthStore(backend: backend, configuration: app, policy: policy, callbackExecutor: .immediate)
    }

    @Test func answersAreKeptPerAppAcrossReopening() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            do {
                let backend = try Backend.open(directory)
                let store = Self.store(backend, policy: .deny(read: [.heartRate]))
                try await store.requestAuthorization(toShare: [.stepCount], read: [.stepCount, .heartRate])
                backend.close()
            }
            let reopened = try Backend.open(directory)
            // A policy that would deny everything: the kept answers are given, the sheet is not shown again.
            let store = Self.store(reopened)
            #expect(store.authorizationStatus(for: .stepCount) == .sharingAuthorized)
            #expect(
                try await store.statusForAuthorizationRequest(toShare: [.stepCount], read: [.stepCount, .heartRate])
                    == .unnecessary)
            #expect(
                reopened.authorizationAnswers(forApp: StoreFixture.app.bundleIdentifier).read == [
                    .stepCount: true, .heartRate: false,
                ])
            let other = Self.store(reopened, app: Self.other)
            #expect(other.authorizationStatus(for: .stepCount) == .notDetermined, "answers belong to their app")
            reopened.close()
        }
    }

    @Test func anAnswerThatCannotBeKeptIsReportedAndNotGiven() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            let probe = FaultyFileSystem()
            let probed = try Backend.open(directory, fileSystem: probe)
            let before = probe.steps.count
            try await Self.store(probed, policy: .grantAll).requestAuthorization(toShare: [.stepCount], read: [])
            probed.close()
            let steps = Array(probe.steps.dropFirst(before))
            try FileManager.default.removeItem(at: directory)
            let write = try #require(steps.firstIndex { $0.operation == "write" })
            #expect(steps[write].name == StoreLayout.temporaryName(for: SegmentAuthorization.fileName))

            let faulty = FaultyFileSystem(.fail(at: before + write + 1, keeping: 3))
            let backend = try Backend.open(directory, fileSystem: faulty)
            let store = Self.store(backend, policy: .grantAll)
            await #expect(throws: FileStoreError.self) {
                try await store.requestAuthorization(toShare: [.stepCount], read: [])
            }
            #expect(store.authorizationStatus(for: .stepCount) == .notDetermined)
            backend.close()
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(!names.contains(SegmentAuthorization.fileName))
            #expect(!names.contains(StoreLayout.temporaryName(for: SegmentAuthorization.fileName)))
        }
    }

    @Test func aDamagedAnswersFileStopsOpeningAndIsKept() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            do {
                let backend = try Backend.open(directory)
                try await Self.store(backend, policy: .grantAll).requestAuthorization(toShare: [.stepCount], read: [])
                backend.close()
            }
            let file = directory.appendingPathComponent(SegmentAuthorization.fileName)
            var bytes = try Data(contentsOf: file)
            bytes[SegmentAuthorization.magic.count + 2] ^= 0x08
            try bytes.write(to: file)
            #expect(
                throws: FileStoreError.corruptFile(
                    name: SegmentAuthorization.fileName, offset: SegmentAuthorization.magic.count,
                    problem: .payloadChecksumMismatch)
            ) { try Backend.open(directory) }
            #expect(try Data(contentsOf: file) == bytes)
        }
    }
}

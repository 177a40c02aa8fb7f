import FlowKit
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A button whose tap handler a test triggers.
final class Button: Sendable {
    private let handler = Recording<@Sendable () -> Void>()

    func onTap(_ action: @escaping @Sendable () -> Void) { handler.record(action) }

    func tap() { handler.recorded.forEach { $0() } }
}

/// An uploader whose sends stay pending until cancelled, and which records each cancelled request.
final class PendingUploader: Sendable {
    let stopped = Recording<Int>()

    func send(_ batch: Batch) -> Promise<Int> {
        Promise { resolver in resolver.onCancel { self.stopped.record(batch.id) } }
    }
}

extension DocExamples {
    /// The examples of `FlowKit.docc/Cancellation.md`.
    @Suite struct Cancellation {
        @Test func cancellingAChainStopsTheRequestItWaitsFor() async {
            let uploader = PendingUploader()
            let batch = Batch(id: 7, count: 1)
            let cancelButton = Button()
            let confirm: @Sendable (Int) -> Promise<Void> = { _ in Promise(value: ()) }
            let upload = uploader.send(batch).then { confirm($0) }
            cancelButton.onTap { upload.cancel() }  // stops the request, if nothing else waits for it
            cancelButton.tap()
            await #expect(throws: CancellationError.self) { try await upload.value }
            #expect(uploader.stopped.recorded == [7])
        }

        /// Compiled, not run: the example downloads over the network.
        func download(_ url: URL, session: URLSession) -> Promise<Data> {
            Promise { resolver in
                let task = session.dataTask(with: url) { data, _, error in resolver.resolve(data, error) }
                resolver.onCancel { task.cancel() }
                task.resume()
            }
        }

        /// Compiled, not run: the example downloads over the network.
        func sharedDownload(profileURL: URL, session: URLSession) {
            let decodeAvatar: @Sendable (Data) -> Int = { $0.count }
            let decodeName: @Sendable (Data) -> String = { String(decoding: $0, as: UTF8.self) }
            let profile = download(profileURL, session: session)
            let avatar = profile.map { decodeAvatar($0) }
            let name = profile.map { decodeName($0) }

            avatar.cancel()  // profile keeps downloading: name still depends on it
            name.cancel()  // the last dependent withdrew: profile is cancelled, the data task is stopped
        }

        @Test func aSharedPromiseIsCancelledOnlyWhenItsLastDependentWithdraws() async {
            let uploader = PendingUploader()
            let profile = uploader.send(Batch(id: 1, count: 1))
            let avatar = profile.map { $0 + 1 }
            let name = profile.map { "\($0)" }
            avatar.cancel()
            #expect(profile.isPending)
            name.cancel()
            await #expect(throws: CancellationError.self) { try await profile.value }
            #expect(uploader.stopped.recorded == [1])
        }

        @Test func ensureRunsWhicheverPromiseIsCancelled() async {
            Printed.reset()
            let spinner = Spinner()
            let stopButton = Button()
            let source = PendingUploader()
            let store = HeightSource { source.send(Batch(id: 1, count: 1)).map { [Double($0)] } }
            let shown = Recording<[Double]>()
            let show: @Sendable ([Double]) -> Void = { shown.record($0) }
            spinner.start()
            let heights = store.heights()
                .ensure { spinner.stop() }  // runs whichever promise you cancel
                .done { show($0) }
            stopButton.onTap { heights.cancel() }
            stopButton.tap()
            #expect(await Printed.lines(count: 2) == ["spinner started", "spinner stopped"])
            await #expect(throws: CancellationError.self) { try await heights.value }
            #expect(source.stopped.recorded == [1])
            #expect(shown.recorded.isEmpty)
        }
    }
}

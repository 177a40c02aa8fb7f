import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Plain GET and POST for talking to the receiver from tests (a 10 s timeout, never a retry).
enum ReceiverHTTP {
    static func get(_ url: URL) async throws -> Data {
        var request = URLRequest(url: url)
        request.timeoutInterval = 10
        let answer = try await send(request, body: nil)
        guard answer.status == 200 else {
            throw TestReceiverError.badAnswer("GET \(url.path): \(answer.status)")
        }
        return answer.body
    }

    static func post(_ body: Data, to url: URL, contentType: String, idempotencyKey: String) async throws
        -> ReceiverAnswer
    {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.timeoutInterval = 10
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        request.setValue(idempotencyKey, forHTTPHeaderField: "Idempotency-Key")
        return try await send(request, body: body)
    }

    private static func send(_ request: URLRequest, body: Data?) async throws -> ReceiverAnswer {
        try await withCheckedThrowingContinuation { continuation in
            let handler: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                    continuation.resume(returning: ReceiverAnswer(status: status, body: data ?? Data()))
                }
            }
            let task =
                body.map { URLSession.shared.uploadTask(with: request, from: $0, completionHandler: handler) }
                ?? URLSession.shared.dataTask(with: request, completionHandler: handler)
            task.resume()
        }
    }
}

import ActuateTestSupport
import Foundation
import Testing

/// A compressed answer cannot take more memory than ``OutgoingRequestPolicy/maximumResponseBytes``: a 64 KB zstd
/// answer inflates to 2 GiB, and a hostile server sends one whatever the request asked for.
///
/// Each request runs in a helper process of its own (`JournalWriter fetch`), which reports how far its peak resident
/// size rose during the request; a plain answer of a few bytes, fetched the same way, is the baseline.
///
/// On Linux the client drives libcurl itself (``CurlTransfer``): it asks for `identity`, libcurl decodes nothing,
/// and an encoded answer is refused at its headers. Before, through FoundationNetworking, the whole decoded answer
/// was held at once (2,386 MB for 2 GiB of zstd), and a 3xx answer's body was inflated whole before any delegate
/// call, past every deadline. The bound checked is two limits.
@Suite("OutgoingHTTPClient and compressed answers")
struct OutgoingHTTPClientDecompressionTests {
    static let limit = 1 << 20

    @Test(
        "a decompression bomb is refused at its headers, and the process's peak memory stays within two limits",
        arguments: [
            ("zstd", 2 << 30, 200), ("gzip", 128 << 20, 200), ("deflate", 64 << 20, 200),
            ("zstd", 2 << 30, 302), ("gzip", 128 << 20, 301),
        ]
    )
    func bomb(encoding: String, decodedBytes: Int, status: Int) async throws {
        let server = try await LoopbackServerProcess.start("redirect_server.py")
        let shutdown: @Sendable (LoopbackServerProcess) async -> Void = { await $0.shutdown() }
        try await LoopbackServerProcess.using(server, shutdown: shutdown) { server in
            let plain = try await Self.fetch(server.url("/declared/100"))
            #expect(plain.answer == "http 200 100")

            let bomb = try await Self.fetch(server.url("/bomb/\(encoding)/\(decodedBytes)/\(status)"))
            #if canImport(FoundationNetworking)
            #expect(
                bomb.answer == "failed other: the response is encoded as \(encoding), and only identity was accepted"
            )
            #else
            #expect(bomb.answer.hasPrefix("failed other: "))
            #endif
            let growth = bomb.peakGrowthKilobytes - plain.peakGrowthKilobytes
            #expect(
                growth * 1024 < 2 * Self.limit,
                "the \(encoding) answer raised the peak by \(bomb.peakGrowthKilobytes) KB, a plain one by \(plain.peakGrowthKilobytes) KB"
            )
        }
    }

    @Test("an answer marked identity is read as it is")
    func identityAnswer() async throws {
        let server = try await LoopbackServerProcess.start("redirect_server.py")
        let shutdown: @Sendable (LoopbackServerProcess) async -> Void = { await $0.shutdown() }
        try await LoopbackServerProcess.using(server, shutdown: shutdown) { server in
            let fetched = try await Self.fetch(server.url("/bomb/identity/1000"))
            #expect(fetched.answer == "http 200 1000")
        }
    }

    /// What the helper process reported for one request.
    struct Fetched: Sendable {
        var answer: String
        var peakGrowthKilobytes: Int
    }

    static func fetch(_ url: URL) async throws -> Fetched {
        let lines = try await onOwnThread { () throws -> [String] in
            let child = try JournalWriterProcess(arguments: ["fetch", url.absoluteString, String(limit)])
            var lines: [String] = []
            while let line = child.readLine() { lines.append(line) }
            _ = child.finish()
            return lines
        }
        let answer = try #require(lines.first { $0.hasPrefix("answer ") }, "the helper wrote \(lines)")
        let growth = try #require(lines.first { $0.hasPrefix("peak-growth ") }, "the helper wrote \(lines)")
        return Fetched(
            answer: String(answer.dropFirst("answer ".count)),
            peakGrowthKilobytes: try #require(Int(growth.dropFirst("peak-growth ".count)))
        )
    }
}

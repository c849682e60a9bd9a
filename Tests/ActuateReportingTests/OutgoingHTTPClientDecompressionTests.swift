import ActuateTestSupport
import Foundation
import Testing

/// A compressed answer is counted against ``OutgoingRequestPolicy/maximumResponseBytes`` as it is decoded, and the
/// memory it takes stays near the limit: libcurl (URLSession on Linux) decodes any encoding it knows, whatever the
/// request asked for, and a 64 KB zstd answer inflates to 2 GiB.
///
/// Each request runs in a helper process of its own (`JournalWriter fetch`), which reports how far its peak resident
/// size rose during the request; a plain answer of a few bytes, fetched the same way, is the baseline.
///
/// Before the bound, the whole decoded answer was held at once: 2,386 MB for 2 GiB of zstd. What remains is
/// FoundationNetworking's own: it replaces a timer for every 16 KB piece libcurl decodes and frees the old ones only
/// when the read that produced them ends, about 330 bytes a piece (2% of the decoded size). The bound checked is
/// four limits plus 3% of the decoded size; without the bound the growth is the decoded size itself.
@Suite("OutgoingHTTPClient and compressed answers")
struct OutgoingHTTPClientDecompressionTests {
    static let limit = 1 << 20

    @Test(
        "a decompression bomb is refused at the limit, and the process's peak memory stays within a few limits",
        arguments: [("zstd", 2 << 30), ("gzip", 128 << 20), ("deflate", 64 << 20)]
    )
    func bomb(encoding: String, decodedBytes: Int) async throws {
        let server = try await LoopbackServerProcess.start("redirect_server.py")
        let shutdown: @Sendable (LoopbackServerProcess) async -> Void = { await $0.shutdown() }
        try await LoopbackServerProcess.using(server, shutdown: shutdown) { server in
            let plain = try await Self.fetch(server.url("/declared/100"))
            #expect(plain.answer == "http 200 100")

            let bomb = try await Self.fetch(server.url("/bomb/\(encoding)/\(decodedBytes)"))
            #expect(bomb.answer == "failed other: the response is larger than \(Self.limit) bytes")
            let growth = bomb.peakGrowthKilobytes - plain.peakGrowthKilobytes
            #expect(
                growth * 1024 < 4 * Self.limit + decodedBytes / 32,
                "the \(encoding) answer raised the peak by \(bomb.peakGrowthKilobytes) KB, a plain one by \(plain.peakGrowthKilobytes) KB"
            )
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

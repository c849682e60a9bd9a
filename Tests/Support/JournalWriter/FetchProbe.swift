// The `fetch` mode of the helper process, for the decompression-bound test: one GET through the package's outgoing
// HTTP client, in a process of its own so that its peak memory is its alone.
//
// Usage: JournalWriter fetch URL LIMIT
//   Prints `answer WHAT` (`http STATUS BYTES`, or `failed KIND: MESSAGE`), then `peak-growth KB`: how far the
//   process's peak resident size (getrusage's ru_maxrss) rose from just before the request to just after it.
import ActuateReporting
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

enum FetchProbe {
    static func run(_ arguments: [String]) -> Never {
        guard arguments.count == 4, let url = URL(string: arguments[2]), let limit = Int(arguments[3]), limit > 0 else {
            fail("usage: JournalWriter fetch URL LIMIT")
        }
        let client = OutgoingHTTPClient(
            policy: OutgoingRequestPolicy(
                timeout: .seconds(60),
                deadline: .seconds(120),
                maximumResponseBytes: limit,
                followsRedirects: false
            )
        )
        let before = peakResidentKilobytes()
        let done = DispatchSemaphore(value: 0)
        let answer = Mutex<TransportResponse?>(nil)
        client.send(URLRequest(url: url)) { response in
            answer.withLock { $0 = response }
            done.signal()
        }
        done.wait()
        let after = peakResidentKilobytes()
        switch answer.withLock({ $0 }) {
        case .http(let response)?:
            say("answer http \(response.statusCode) \(response.body.count)")
        case .failed(let failure)?:
            say("answer failed \(failure.kind): \(failure.message)")
        case nil:
            say("answer none")
        }
        say("peak-growth \(after - before)")
        exit(0)
    }

    /// The process's peak resident set size so far, in kilobytes.
    private static func peakResidentKilobytes() -> Int {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return Int(usage.ru_maxrss)
    }
}

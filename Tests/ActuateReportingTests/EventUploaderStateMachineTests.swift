import Foundation
import Testing

@testable import ActuateReporting

private let now = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

private func http(_ status: Int, _ headers: [String: String] = [:]) -> TransportResponse {
    .http(HTTPResponse(statusCode: status, headers: headers))
}

private func events(_ count: Int) -> [ReportEvent] {
    (0..<count).map { index in
        ReportEvent(
            type: "executed",
            timestamp: now,
            sessionID: "s",
            anonymousID: "a",
            properties: ["i": .number(Double(index))]
        )
    }
}

@Suite("ResponseClassifier")
struct ResponseClassifierTests {
    @Test("2xx is acknowledged", arguments: [200, 201, 202, 204, 299])
    func acknowledged(status: Int) {
        #expect(ResponseClassifier.classify(http(status), now: now) == .acknowledged)
    }

    @Test("5xx, 408, 401 and 403 are retried without counting a try", arguments: [500, 502, 504, 599, 408, 401, 403])
    func retryable(status: Int) {
        #expect(ResponseClassifier.classify(http(status), now: now) == .retryable(reason: "HTTP \(status)"))
    }

    @Test("429 and 503 throttle, with or without Retry-After", arguments: [429, 503])
    func throttled(status: Int) {
        #expect(
            ResponseClassifier.classify(http(status, ["retry-after": "7"]), now: now)
                == .throttled(retryAfter: .seconds(7), reason: "HTTP \(status)")
        )
        #expect(
            ResponseClassifier.classify(http(status), now: now) == .throttled(retryAfter: nil, reason: "HTTP \(status)")
        )
        #expect(
            ResponseClassifier.classify(http(status, ["Retry-After": "soon"]), now: now)
                == .throttled(retryAfter: nil, reason: "HTTP \(status)")
        )
    }

    @Test("413 is too large")
    func tooLarge() {
        #expect(ResponseClassifier.classify(http(413), now: now) == .tooLarge(reason: "HTTP 413"))
    }

    @Test(
        "3xx, a redirect the transport refused to follow, is a configuration error",
        arguments: [300, 301, 302, 304, 307, 308, 399]
    )
    func redirectIsMisconfiguration(status: Int) {
        guard case .misconfigured(let reason) = ResponseClassifier.classify(http(status), now: now) else {
            Issue.record("HTTP \(status) is not classified as a configuration error")
            return
        }
        #expect(reason == "HTTP \(status): \(ResponseClassifier.redirectExplanation)")
    }

    @Test("other statuses are rejections", arguments: [400, 404, 409, 410, 422, 501, 505, 100, 600, 0, -1])
    func rejected(status: Int) {
        #expect(ResponseClassifier.classify(http(status), now: now) == .rejected(reason: "HTTP \(status)"))
    }

    @Test(
        "connection failures are retried",
        arguments: [TransportFailure.Kind.timedOut, .connectionLost, .cannotConnect, .other]
    )
    func connectionFailures(kind: TransportFailure.Kind) {
        let failure = TransportFailure(kind: kind, message: "boom")
        #expect(ResponseClassifier.classify(.failed(failure), now: now) == .retryable(reason: failure.description))
    }

    @Test("an unencodable batch is treated like a 413, so it is split down to the bad event")
    func encodingFailure() {
        let response = TransportResponse.failed(TransportFailure(kind: .encodingFailed, message: "NaN"))
        guard case .tooLarge(let reason) = ResponseClassifier.classify(response, now: now) else {
            Issue.record("expected tooLarge")
            return
        }
        #expect(reason.contains("could not be encoded"))
    }
}

@Suite("RetryAfter")
struct RetryAfterTests {
    @Test(
        "parses delay-seconds",
        arguments: [("2", 2), (" 120 ", 120), ("0", 0), ("000", 0), ("86400", 86_400)] as [(String, Int64)]
    )
    func seconds(value: String, expected: Int64) {
        #expect(RetryAfter.delay(from: value, now: now) == .seconds(expected))
    }

    @Test(
        "rejects bad values",
        arguments: ["", "   ", "-5", "1.5", "abc", "2s", "+3", "0x10", "Wed, 32 Oct 2026 07:28:00 GMT"]
    )
    func bad(value: String) {
        #expect(RetryAfter.delay(from: value, now: now) == nil)
    }

    @Test(
        "refuses non-ASCII and overlong dates without reaching DateFormatter, which traps on some of them",
        arguments: [
            "Wed, 21\u{670}" + String(repeating: "\u{FFFD}", count: 6) + "> 0<:28:00%GMT",  // the fuzzer's crash
            "Wed, 21 Oct 2026 07:28:00 GMT\u{0}",
            "Thu, \u{661}\u{662} Jan 2026 00:00:10 GMT",
            "Thursday, 01-Jan-26 00:01:00 GMT" + String(repeating: " x", count: 10),
        ]
    )
    func nonASCIIDates(value: String) {
        #expect(RetryAfter.delay(from: value, now: now) == nil)
    }

    @Test("caps absurdly long numbers instead of overflowing")
    func hugeNumber() throws {
        let delay = try #require(RetryAfter.delay(from: "99999999999999999999999999", now: now))
        #expect(delay == .seconds(999_999_999_999))
    }

    @Test("parses HTTP dates in all three forms")
    func dates() {
        // now is Thu, 01 Jan 2026 00:00:00 GMT.
        #expect(RetryAfter.delay(from: "Thu, 01 Jan 2026 00:00:10 GMT", now: now) == .seconds(10))
        #expect(RetryAfter.delay(from: "Thursday, 01-Jan-26 00:01:00 GMT", now: now) == .seconds(60))
        #expect(RetryAfter.delay(from: "Thu Jan  1 00:00:05 2026", now: now) == .seconds(5))
    }

    @Test("a date in the past means no delay")
    func pastDate() {
        #expect(RetryAfter.delay(from: "Wed, 31 Dec 2025 23:59:00 GMT", now: now) == .zero)
    }
}

@Suite("UploadRetryPolicy")
struct UploadRetryPolicyTests {
    let policy = UploadRetryPolicy()

    @Test("backoff doubles from 0.5 s and stops at 300 s")
    func growthAndCap() {
        let delays = (1...13).map { policy.backoffDelay(forAttempt: $0, random: 0.5) }
        let expected: [Duration] = [
            .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(32),
            .seconds(64), .seconds(128), .seconds(256), .seconds(300), .seconds(300), .seconds(300),
        ]
        #expect(delays == expected)
        #expect(policy.backoffDelay(forAttempt: 10_000, random: 0.5) == .seconds(300))
        #expect(policy.backoffDelay(forAttempt: 0, random: 0.5) == .milliseconds(500))
        #expect(policy.backoffDelay(forAttempt: -3, random: 0.5) == .milliseconds(500))
    }

    @Test("jitter stays within ±10% and never exceeds the maximum", arguments: [0.0, 0.1, 0.25, 0.5, 0.75, 0.999_999])
    func jitterBounds(random: Double) {
        for attempt in 1...12 {
            let plain = policy.backoffDelay(forAttempt: attempt, random: 0.5).seconds
            let jittered = policy.backoffDelay(forAttempt: attempt, random: random).seconds
            #expect(jittered >= plain * 0.9 - 1e-9)
            #expect(jittered <= min(plain * 1.1, 300) + 1e-9)
        }
    }

    @Test("the extremes of the random source reach the jitter bounds")
    func jitterExtremes() {
        #expect(policy.backoffDelay(forAttempt: 3, random: 0) == .milliseconds(1800))
        #expect(policy.backoffDelay(forAttempt: 3, random: 1) == .milliseconds(2200))
        #expect(policy.backoffDelay(forAttempt: 3, random: .nan) == .seconds(2))
        #expect(policy.backoffDelay(forAttempt: 3, random: 7) == .milliseconds(2200))
    }

    @Test("a pause honours Retry-After within [base, maxRetryAfter], else backs off")
    func pause() {
        #expect(policy.pauseDelay(retryAfter: .seconds(2), attempt: 1, random: 0.5) == .seconds(2))
        #expect(policy.pauseDelay(retryAfter: .zero, attempt: 1, random: 0.5) == .milliseconds(500))
        #expect(policy.pauseDelay(retryAfter: .seconds(999_999), attempt: 1, random: 0.5) == .seconds(3600))
        #expect(policy.pauseDelay(retryAfter: nil, attempt: 3, random: 0.5) == .seconds(2))
    }

    @Test("out-of-range settings are corrected")
    func clamps() {
        let odd = UploadRetryPolicy(
            backoffBase: .zero,
            backoffMaximum: .seconds(-1),
            jitter: -4,
            maxRejectedTries: 0,
            maxRetryAfter: .seconds(-5)
        )
        #expect(odd.backoffBase == .milliseconds(1))
        #expect(odd.backoffMaximum == .milliseconds(1))
        #expect(odd.jitter == 0)
        #expect(odd.maxRejectedTries == 1)
        #expect(UploadRetryPolicy(jitter: .nan).jitter == 0)
        #expect(UploadRetryPolicy(jitter: 5).jitter == 1)
    }
}

@Suite("UploadStateMachine")
struct UploadStateMachineTests {
    @Test("a 2xx acknowledges the whole batch and resets the backoff")
    func acknowledge() {
        var machine = UploadStateMachine(policy: UploadRetryPolicy())
        let batch = events(4)
        machine.begin(batch)
        _ = machine.handle(http(500), now: now, random: 0.5)
        #expect(machine.consecutiveFailures == 1)
        #expect(machine.handle(http(200), now: now, random: 0.5) == .acknowledge(Set(batch.map(\.id))))
        #expect(machine.currentBatch == nil)
        #expect(machine.consecutiveFailures == 0)
    }

    @Test("5xx and connection errors keep the batch and back off exponentially")
    func retries() {
        var machine = UploadStateMachine(policy: UploadRetryPolicy())
        let batch = events(3)
        machine.begin(batch)
        let lost = TransportResponse.failed(TransportFailure(kind: .connectionLost, message: "reset"))
        #expect(
            machine.handle(http(500), now: now, random: 0.5) == .retry(after: .milliseconds(500), reason: "HTTP 500")
        )
        #expect(
            machine.handle(lost, now: now, random: 0.5) == .retry(after: .seconds(1), reason: "connectionLost: reset")
        )
        #expect(machine.handle(http(502), now: now, random: 0.5) == .retry(after: .seconds(2), reason: "HTTP 502"))
        #expect(machine.currentBatch == batch)
        #expect(machine.rejectedTries == 0)
    }

    @Test("429 and 503 pause, honouring Retry-After")
    func pauses() {
        var machine = UploadStateMachine(policy: UploadRetryPolicy())
        machine.begin(events(2))
        #expect(
            machine.handle(http(503, ["Retry-After": "2"]), now: now, random: 0.5)
                == .pause(for: .seconds(2), reason: "HTTP 503")
        )
        #expect(machine.handle(http(429), now: now, random: 0.5) == .pause(for: .seconds(1), reason: "HTTP 429"))
        #expect(machine.currentBatch?.count == 2)
    }

    @Test("a rejected batch is dead-lettered after the policy's tries; connection errors between do not count")
    func deadLetterAfterTries() {
        var machine = UploadStateMachine(policy: UploadRetryPolicy())
        let batch = events(5)
        machine.begin(batch)
        let timeout = TransportResponse.failed(TransportFailure(kind: .timedOut, message: "1 s"))
        #expect(
            machine.handle(http(400), now: now, random: 0.5) == .retry(after: .milliseconds(500), reason: "HTTP 400")
        )
        _ = machine.handle(timeout, now: now, random: 0.5)
        _ = machine.handle(http(500), now: now, random: 0.5)
        #expect(machine.handle(http(400), now: now, random: 0.5) == .retry(after: .seconds(1), reason: "HTTP 400"))
        #expect(machine.rejectedTries == 2)
        #expect(
            machine.handle(http(400), now: now, random: 0.5)
                == .deadLetter(Set(batch.map(\.id)), reason: "HTTP 400 after 3 tries")
        )
        #expect(machine.currentBatch == nil)
        #expect(machine.rejectedTries == 0)
    }

    @Test("one try is reported in the singular")
    func singleTry() {
        var machine = UploadStateMachine(policy: UploadRetryPolicy(maxRejectedTries: 1))
        let batch = events(1)
        machine.begin(batch)
        #expect(
            machine.handle(http(422), now: now, random: 0.5)
                == .deadLetter(Set(batch.map(\.id)), reason: "HTTP 422 after 1 try")
        )
    }

    @Test("413 splits the batch in halves, sent in order after a backoff, down to a single event that is dead-lettered")
    func split() {
        var machine = UploadStateMachine(policy: UploadRetryPolicy())
        let batch = events(5)
        machine.begin(batch)
        _ = machine.handle(http(400), now: now, random: 0.5)
        #expect(machine.handle(http(413), now: now, random: 0.5) == .split(after: .milliseconds(500)))
        #expect(machine.currentBatch == Array(batch[0..<2]))
        #expect(machine.rejectedTries == 0)
        #expect(machine.handle(http(200), now: now, random: 0.5) == .acknowledge(Set(batch[0..<2].map(\.id))))
        #expect(machine.currentBatch == Array(batch[2..<5]))
        #expect(machine.handle(http(413), now: now, random: 0.5) == .split(after: .milliseconds(500)))
        #expect(machine.currentBatch == [batch[2]])
        let decision = machine.handle(http(413), now: now, random: 0.5)
        #expect(decision == .deadLetter([batch[2].id], reason: "HTTP 413: a single event is too large to send"))
        #expect(machine.currentBatch == Array(batch[3..<5]))
    }

    @Test("a collector answering 413 to everything meets a growing backoff between splits, capped by the policy")
    func splitStormBacksOff() {
        var machine = UploadStateMachine(policy: UploadRetryPolicy(backoffMaximum: .seconds(10)))
        machine.begin(events(64))
        var delays: [Duration] = []
        var deadLettered = 0
        // Depth first: 64 → 32 → … → 1, each split waiting longer, until the single events are given up on.
        for _ in 0..<12 {
            switch machine.handle(http(413), now: now, random: 0.5) {
            case .split(let delay): delays.append(delay)
            case .deadLetter(let ids, _): deadLettered += ids.count
            default: Issue.record("unexpected decision")
            }
        }
        #expect(
            delays == [
                .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10),
                .seconds(10),
            ]
        )
        #expect(deadLettered == 4)
        #expect(machine.consecutiveFailures == 8)
        // An acknowledgement ends the storm: the next split waits the base delay again.
        _ = machine.handle(http(200), now: now, random: 0.5)
        machine.begin(events(2))
        #expect(machine.handle(http(413), now: now, random: 0.5) == .split(after: .milliseconds(500)))
    }

    @Test(
        "a redirect is a configuration error: delivery pauses with backoff, nothing is dead-lettered",
        arguments: [301, 302, 307, 308]
    )
    func redirectPauses(status: Int) {
        var machine = UploadStateMachine(policy: UploadRetryPolicy(maxRejectedTries: 1))
        let batch = events(3)
        machine.begin(batch)
        var delays: [Duration] = []
        for _ in 0..<5 {
            guard case .pause(let delay, let reason) = machine.handle(http(status), now: now, random: 0.5) else {
                Issue.record("a redirect did not pause delivery")
                return
            }
            #expect(reason.hasPrefix("HTTP \(status): the collector redirects"))
            #expect(reason.contains("configuration error"))
            delays.append(delay)
        }
        #expect(delays == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8)])
        #expect(machine.currentBatch == batch, "the batch is kept for the retry")
        #expect(machine.configurationError?.hasPrefix("HTTP \(status)") == true)
        #expect(machine.handle(http(200), now: now, random: 0.5) == .acknowledge(Set(batch.map(\.id))))
        #expect(machine.configurationError == nil)
    }

    @Test("with nothing in flight a response changes nothing, and an empty batch is ignored")
    func nothingInFlight() {
        var machine = UploadStateMachine(policy: UploadRetryPolicy())
        machine.begin([])
        #expect(machine.currentBatch == nil)
        #expect(machine.handle(http(500), now: now, random: 0.5) == .acknowledge([]))
        #expect(machine.consecutiveFailures == 0)
    }

    @Test("store failures back off like connection failures")
    func storeFailures() {
        var machine = UploadStateMachine(policy: UploadRetryPolicy())
        #expect(machine.storeFailed(random: 0.5) == .milliseconds(500))
        #expect(machine.storeFailed(random: 0.5) == .seconds(1))
    }
}

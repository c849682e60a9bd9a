/// The numbers that decide how ``EventUploader`` backs off and when it gives up on a batch.
///
/// Out-of-range values are corrected when the policy is created: a base of at least one millisecond, a maximum
/// of at least the base, jitter between 0 and 1, and at least one try.
public struct UploadRetryPolicy: Sendable, Hashable {
    /// The first backoff delay; each further failure doubles it.
    package var backoffBase: Duration
    /// The longest backoff delay.
    package var backoffMaximum: Duration
    /// The fraction by which a delay is randomly lengthened or shortened, so that many clients do not retry
    /// in step.
    package var jitter: Double
    /// How many times a batch may be rejected (4xx) before it is moved to the dead-letter file.
    package var maxRejectedTries: Int
    /// The longest pause a `Retry-After` header can impose, a guard against absurd values.
    package var maxRetryAfter: Duration

    /// Creates a policy; the defaults are 0.5 s base, 300 s maximum, 10% jitter, 3 tries and a 1-hour cap on
    /// `Retry-After`.
    /// - Parameters:
    ///   - backoffBase: The first backoff delay.
    ///   - backoffMaximum: The longest backoff delay.
    ///   - jitter: The fraction by which delays vary randomly.
    ///   - maxRejectedTries: How many rejections a batch survives before it is dead-lettered.
    ///   - maxRetryAfter: The longest pause a `Retry-After` header can impose.
    public init(
        backoffBase: Duration = .milliseconds(500),
        backoffMaximum: Duration = .seconds(300),
        jitter: Double = 0.1,
        maxRejectedTries: Int = 3,
        maxRetryAfter: Duration = .seconds(3600)
    ) {
        self.backoffBase = max(backoffBase, .milliseconds(1))
        self.backoffMaximum = max(backoffMaximum, self.backoffBase)
        self.jitter = jitter.isFinite ? min(max(jitter, 0), 1) : 0
        self.maxRejectedTries = max(1, maxRejectedTries)
        self.maxRetryAfter = max(maxRetryAfter, .zero)
    }

    /// The delay before the next try after `attempt` consecutive failures.
    ///
    /// The delay is `backoffBase × 2^(attempt − 1)`, capped at ``backoffMaximum``, then varied by up to
    /// ±``jitter`` and capped again, so it never exceeds the maximum.
    /// - Parameters:
    ///   - attempt: The number of consecutive failures so far, from 1.
    ///   - random: A number in `0..<1`; 0.5 gives the delay without jitter.
    /// - Returns: The delay.
    func backoffDelay(forAttempt attempt: Int, random: Double) -> Duration {
        let exponent = min(max(attempt, 1) - 1, 62)
        let base = backoffBase.seconds
        let maximum = backoffMaximum.seconds
        let unjittered = min(base * Double(sign: .plus, exponent: exponent, significand: 1), maximum)
        let unit = random.isFinite ? min(max(random, 0), 1) : 0.5
        let jittered = unjittered * (1 + jitter * (2 * unit - 1))
        return Self.duration(seconds: min(max(jittered, 0), maximum))
    }

    /// The pause after a throttling response (429 or 503).
    ///
    /// - Parameters:
    ///   - retryAfter: The delay the `Retry-After` header asked for, if it was present and valid.
    ///   - attempt: The number of consecutive failures so far, from 1, used when there is no `Retry-After`.
    ///   - random: A number in `0..<1`, for the jitter of the backoff.
    /// - Returns: `retryAfter`, at least ``backoffBase`` so that `Retry-After: 0` cannot spin, and at most
    ///   ``maxRetryAfter``; or the backoff delay when `retryAfter` is `nil`.
    func pauseDelay(retryAfter: Duration?, attempt: Int, random: Double) -> Duration {
        guard let retryAfter else { return backoffDelay(forAttempt: attempt, random: random) }
        return min(max(retryAfter, backoffBase), max(maxRetryAfter, backoffBase))
    }

    private static func duration(seconds: Double) -> Duration {
        .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
}

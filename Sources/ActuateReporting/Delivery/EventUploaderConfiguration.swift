extension EventUploader {
    /// How an ``EventUploader`` batches, flushes and retries.
    public struct Configuration: Sendable {
        /// When the uploader flushes on its own; every 20 events and every 30 seconds unless set.
        var flushPolicies: [FlushPolicy]
        /// The most events in one request. Values below 1 mean 1.
        var maxBatchCount: Int
        /// The most bytes in one request body, measured in the transport's ``EventTransport/encoding``, below the
        /// collector's 500 KB limit. Values below 1 mean 1; a single larger event is still sent alone.
        var maxBatchBytes: Int
        /// Backoff and dead-letter rules.
        var retryPolicy: UploadRetryPolicy
        /// The source of the backoff jitter: returns a number in `0..<1`. Tests pass a constant.
        package var random: @Sendable () -> Double

        /// Creates a configuration.
        /// - Parameters:
        ///   - flushPolicies: When to flush on its own (every 20 events and every 30 s by default).
        ///   - maxBatchCount: The most events in one request (500 by default).
        ///   - maxBatchBytes: The most bytes in one request body (475,000 by default).
        ///   - retryPolicy: Backoff and dead-letter rules.
        ///   - random: The source of the backoff jitter, returning numbers in `0..<1`.
        public init(
            flushPolicies: [FlushPolicy] = FlushPolicy.defaults,
            maxBatchCount: Int = 500,
            maxBatchBytes: Int = 475_000,
            retryPolicy: UploadRetryPolicy = UploadRetryPolicy(),
            random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
        ) {
            self.flushPolicies = flushPolicies
            self.maxBatchCount = maxBatchCount
            self.maxBatchBytes = maxBatchBytes
            self.retryPolicy = retryPolicy
            self.random = random
        }

        /// The smallest count among the count policies, if any.
        var flushCount: Int? {
            flushPolicies.compactMap { policy -> Int? in
                if case .count(let count) = policy { return max(1, count) }
                return nil
            }.min()
        }

        /// The shortest period among the interval policies, if any.
        var flushInterval: Duration? {
            flushPolicies.compactMap { policy -> Duration? in
                if case .interval(let period) = policy { return max(period, .seconds(1)) }
                return nil
            }.min()
        }
    }
}

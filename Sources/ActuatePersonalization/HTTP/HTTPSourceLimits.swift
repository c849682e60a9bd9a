/// How long an HTTP source waits and how much it sends and reads: one policy for ``HTTPDecisionSource``,
/// ``HTTPCampaignSource`` and ``HTTPContentBlockSource``, with a default for each kind of answer.
///
/// | kind | `timeout` | `deadline` | request | response | why |
/// |---|---|---|---|---|---|
/// | ``decisions`` | 15 s | 30 s | 512 KB | 4 MB | the request carries every pending behaviour command; the answer whole HTML content actions |
/// | ``campaigns`` | 15 s | 30 s | 256 KB | 1 MB | one tracked event out, campaign data (ids, keys, a small payload) back |
/// | ``contentBlocks`` | 30 s | 60 s | 64 KB | 4 MB | a list of placeholder ids out, whole HTML blocks back, often as a prefetch off the screen's path |
///
/// A request over ``maximumRequestBytes`` is refused before anything is sent; an answer is read up to
/// ``maximumResponseBytes`` and no further (a larger one is refused without being held in memory).
///
/// ```swift
/// var limits = HTTPSourceLimits.campaigns
/// limits.timeout = .seconds(5)
/// limits.deadline = .seconds(10)
/// let source = try HTTPCampaignSource(
///     endpoint: URL(string: "https://campaigns.example.com/v1/campaigns")!,
///     limits: limits
/// )
/// ```
public struct HTTPSourceLimits: Sendable, Hashable {
    /// How long to wait for the next bytes of an answer (an idle timeout); at least 1 ms.
    public var timeout: Duration
    /// How long one request may take in all, from its start to the answer's last byte; at least 1 ms.
    public var deadline: Duration
    /// The largest request body sent, in bytes; at least 1.
    public var maximumRequestBytes: Int
    /// The largest response body read, in bytes; at least 1.
    public var maximumResponseBytes: Int

    /// Creates limits. A source raises a value below its minimum to it when it applies the limits.
    /// - Parameters:
    ///   - timeout: How long to wait for the next bytes of an answer.
    ///   - deadline: How long one request may take in all.
    ///   - maximumRequestBytes: The largest request body sent.
    ///   - maximumResponseBytes: The largest response body read.
    public init(timeout: Duration, deadline: Duration, maximumRequestBytes: Int, maximumResponseBytes: Int) {
        self.timeout = timeout
        self.deadline = deadline
        self.maximumRequestBytes = maximumRequestBytes
        self.maximumResponseBytes = maximumResponseBytes
    }

    /// A decision server's: 15 s idle, 30 s in all, 512 KB out, 4 MB back.
    public static let decisions = HTTPSourceLimits(
        timeout: .seconds(15),
        deadline: .seconds(30),
        maximumRequestBytes: 512 * 1_024,
        maximumResponseBytes: 4 * 1_024 * 1_024
    )

    /// A campaign server's: 15 s idle, 30 s in all, 256 KB out, 1 MB back.
    public static let campaigns = HTTPSourceLimits(
        timeout: .seconds(15),
        deadline: .seconds(30),
        maximumRequestBytes: 256 * 1_024,
        maximumResponseBytes: 1_024 * 1_024
    )

    /// A content-block server's: 30 s idle, 60 s in all, 64 KB out, 4 MB back.
    public static let contentBlocks = HTTPSourceLimits(
        timeout: .seconds(30),
        deadline: .seconds(60),
        maximumRequestBytes: 64 * 1_024,
        maximumResponseBytes: 4 * 1_024 * 1_024
    )

    /// The limits with every value raised to its minimum, as a source applies them.
    var applied: HTTPSourceLimits {
        HTTPSourceLimits(
            timeout: max(timeout, .milliseconds(1)),
            deadline: max(deadline, .milliseconds(1)),
            maximumRequestBytes: max(maximumRequestBytes, 1),
            maximumResponseBytes: max(maximumResponseBytes, 1)
        )
    }
}

import Testing

@testable import ActuateReporting

/// The one status mapping of the package's HTTP sources (decisions, campaigns, content blocks and their assets).
@Suite("HTTP source status")
struct HTTPSourceStatusTests {
    @Test(
        "each status falls in one class, and its words start as every source's message does",
        arguments: [
            (200, HTTPSourceStatus.success(200)), (204, .success(204)), (301, .redirected(301)),
            (307, .redirected(307)), (401, .unauthorized(401)), (403, .unauthorized(403)), (413, .requestTooLarge),
            (500, .serverError(500)), (503, .serverError(503)), (404, .unexpected(404)), (429, .unexpected(429)),
            (101, .unexpected(101)), (0, .unexpected(0)), (999, .unexpected(999)),
        ]
    )
    func classification(statusCode: Int, expected: HTTPSourceStatus) {
        let status = HTTPSourceStatus(statusCode: statusCode)
        #expect(status == expected)
        #expect(status.isSuccess == (200..<300).contains(statusCode))
        #expect(status.description.hasPrefix("the server answered with status \(statusCode)"))
    }
}

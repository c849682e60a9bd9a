import Foundation

/// The outcome of one request, as ``EventUploader`` reports it.
package struct UploadResult: Sendable, Hashable {
    /// How many events the request carried.
    package var eventCount: Int
    /// The HTTP status, or `nil` when no response arrived.
    package var statusCode: Int?
    /// The transport failure, when no response arrived.
    package var failure: TransportFailure?
    /// What the uploader decided.
    package var decision: UploadDecision

    /// Creates a result.
    /// - Parameters:
    ///   - eventCount: How many events the request carried.
    ///   - response: What the transport returned.
    ///   - decision: What the uploader decided.
    package init(eventCount: Int, response: TransportResponse, decision: UploadDecision) {
        self.eventCount = eventCount
        switch response {
        case .http(let http):
            statusCode = http.statusCode
            failure = nil
        case .failed(let failure):
            statusCode = nil
            self.failure = failure
        }
        self.decision = decision
    }
}

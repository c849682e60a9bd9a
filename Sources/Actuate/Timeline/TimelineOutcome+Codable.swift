/// The readable encoding of debug report format 1: `{"kind": "failure", "message": "card declined"}`.
extension TimelineOutcome: Codable {
    private enum CodingKeys: String, CodingKey {
        case kind
        case message
    }

    /// The `kind` of each case in JSON.
    private enum Kind: String, Codable {
        case success
        case successWithFeatureTermination
        case failure
        case failureWithFeatureTermination
        case cancelled
    }

    /// Decodes `{"kind": ..., "message": ...}`; `message` is required for the two failure kinds.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for an unknown kind or a failure without a message.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Kind.self, forKey: .kind) {
        case .success: self = .success
        case .successWithFeatureTermination: self = .successWithFeatureTermination
        case .cancelled: self = .cancelled
        case .failure: self = .failure(message: try container.decode(String.self, forKey: .message))
        case .failureWithFeatureTermination:
            self = .failureWithFeatureTermination(message: try container.decode(String.self, forKey: .message))
        }
    }

    /// Encodes `{"kind": ..., "message": ...}`, with `message` only for the two failure kinds.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: An encoding error from `encoder`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .success: try container.encode(Kind.success, forKey: .kind)
        case .successWithFeatureTermination: try container.encode(Kind.successWithFeatureTermination, forKey: .kind)
        case .cancelled: try container.encode(Kind.cancelled, forKey: .kind)
        case .failure(let message):
            try container.encode(Kind.failure, forKey: .kind)
            try container.encode(message, forKey: .message)
        case .failureWithFeatureTermination(let message):
            try container.encode(Kind.failureWithFeatureTermination, forKey: .kind)
            try container.encode(message, forKey: .message)
        }
    }
}

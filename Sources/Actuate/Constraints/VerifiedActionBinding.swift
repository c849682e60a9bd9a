/// An action of a ``ConditionalFeature`` that was available when requested: it performs like a
/// ``StaticActionBinding``, with every `perform` spelling of ``ActionBinding``, and a session performs it
/// with ``ActionSession/perform(_:input:presenter:userInitiated:source:completion:)``.
///
/// Get one from ``ConditionalActionBinding/request(from:)`` just before performing, rather than keeping it:
/// it records that the feature was available at that moment.
public struct VerifiedActionBinding<F: ConditionalFeature, A: Action>: ActionBinding, CustomStringConvertible {
    public typealias FeatureType = F
    public typealias ActionType = A

    /// The binding that performs the action, for APIs that take a ``StaticActionBinding``.
    public let binding: StaticActionBinding<F, A>

    init(_ binding: StaticActionBinding<F, A>) {
        self.binding = binding
    }

    public var description: String { binding.description }
}

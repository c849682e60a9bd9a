import Actuate
import Synchronization
import Testing

/// What an ``ActionTestHarness`` has accounted for among its dispatcher's diagnostics: which were expected,
/// which were already reported as failures, and which perform started each request.
final class DiagnosticExpectations: Sendable {
    private struct State {
        /// Indices into the recorder's diagnostics that were expected or already reported.
        var handled: Set<Int> = []
        /// Where each request was started, so that a diagnostic is reported at the line that caused it.
        var origins: [UInt64: SourceLocation] = [:]
        /// Where the most recent request was started, for diagnostics that name no request.
        var lastOrigin: SourceLocation?
    }

    private let expectedKinds: Set<ActuateDiagnostic.Kind>
    private let state = Mutex(State())

    init(expectedKinds: Set<ActuateDiagnostic.Kind>) {
        self.expectedKinds = expectedKinds
    }

    /// Remembers where request `id` was started.
    func started(_ id: UInt64?, at sourceLocation: SourceLocation) {
        state.withLock { state in
            if let id { state.origins[id] = sourceLocation }
            state.lastOrigin = sourceLocation
        }
    }

    /// Marks the first diagnostic of `kind` that is not yet accounted for as expected, and returns it.
    func take(_ kind: ActuateDiagnostic.Kind, from diagnostics: [ActuateDiagnostic]) -> ActuateDiagnostic? {
        state.withLock { state in
            guard
                let index = diagnostics.indices.first(where: {
                    diagnostics[$0].kind == kind && !state.handled.contains($0)
                })
            else { return nil }
            state.handled.insert(index)
            return diagnostics[index]
        }
    }

    /// Records a test issue for every diagnostic the test did not expect, once each.
    ///
    /// - Parameters:
    ///   - diagnostics: Every diagnostic reported so far, in order.
    ///   - sourceLocation: Where to report a diagnostic whose request's origin is unknown.
    func reportUnexpected(in diagnostics: [ActuateDiagnostic], at sourceLocation: SourceLocation) {
        let unexpected = state.withLock { state -> [(ActuateDiagnostic, SourceLocation)] in
            var unexpected: [(ActuateDiagnostic, SourceLocation)] = []
            for (index, diagnostic) in diagnostics.enumerated() where !state.handled.contains(index) {
                state.handled.insert(index)
                guard !expectedKinds.contains(diagnostic.kind) else { continue }
                let origin = diagnostic.requestID.flatMap { state.origins[$0] } ?? state.lastOrigin
                unexpected.append((diagnostic, origin ?? sourceLocation))
            }
            return unexpected
        }
        for (diagnostic, location) in unexpected {
            Issue.record(Comment(rawValue: Self.message(for: diagnostic)), sourceLocation: location)
        }
    }

    static func message(for diagnostic: ActuateDiagnostic) -> String {
        let request = diagnostic.requestID.map { " (request #\($0))" } ?? ""
        return """
            Unexpected \(diagnostic.kind.rawValue) diagnostic for '\(diagnostic.actionName)'\(request): \
            \(diagnostic.message)
            If the test expects it, call `harness.expectDiagnostic(.\(diagnostic.kind.rawValue))` after the action, \
            or create the harness with `expectedDiagnostics: [.\(diagnostic.kind.rawValue)]`.
            """
    }
}

import ActuateCore

extension ConditionalActionBinding {
    /// A performable binding if the feature is available in the system set up by
    /// ``ActuateSystem/quickSetup(group:configuration:)``; nil when it is not, or no such system exists.
    ///
    /// It reads the process-wide system that `quickSetup` built; tests, which build systems of their own and run in
    /// parallel, ask their system instead with ``ActuateSystem/request(_:)``.
    public func request() -> VerifiedActionBinding<F, A>? {
        guard let system = ActuateSystem.current else { return nil }
        return request(from: system.availability)
    }
}

import ActuatePersonalization

extension HTTPSourceLimits {
    /// These limits with the given values changed, so a test names only what it needs.
    func changing(
        timeout: Duration? = nil,
        deadline: Duration? = nil,
        maximumRequestBytes: Int? = nil,
        maximumResponseBytes: Int? = nil
    ) -> HTTPSourceLimits {
        var limits = self
        if let timeout { limits.timeout = timeout }
        if let deadline { limits.deadline = deadline }
        if let maximumRequestBytes { limits.maximumRequestBytes = maximumRequestBytes }
        if let maximumResponseBytes { limits.maximumResponseBytes = maximumResponseBytes }
        return limits
    }
}

/// The load rules of a web-view surface, apart from the view: which load is current, that its document may be
/// navigated to once and nothing else ever, that only its messages are delivered, and that each load completes
/// exactly once (a load replaced before it finished completes as failed).
///
/// `WebKitHTMLSurface` is a thin adapter over this value on Apple platforms; keeping the rules here lets them be
/// tested everywhere.
struct HTMLSurfaceLoads {
    private struct Load {
        var generation: Int
        var onMessage: @Sendable (String) -> Void
        var completion: (@Sendable (HTMLSurfaceLoadResult) -> Void)?
        var awaitingDocument: Bool
    }

    /// The document every load navigates to: the HTML is loaded as a string with no base URL.
    static let documentURL = "about:blank"

    /// The generation of the current load; 0 before the first.
    private(set) var generation = 0
    private var current: Load?

    /// Starts a load, replacing the current one.
    /// - Returns: The new load's generation, and the completion of the load it replaced if that one had not
    ///   completed (call it with a failure, outside any lock).
    mutating func start(
        onMessage: @escaping @Sendable (String) -> Void,
        completion: @escaping @Sendable (HTMLSurfaceLoadResult) -> Void
    ) -> (generation: Int, replaced: (@Sendable (HTMLSurfaceLoadResult) -> Void)?) {
        let replaced = finish()
        generation += 1
        current = Load(generation: generation, onMessage: onMessage, completion: completion, awaitingDocument: true)
        return (generation, replaced)
    }

    /// Whether a navigation may go ahead: only the current load's own document, in the main frame, once.
    mutating func allowsNavigation(to url: String?, isMainFrame: Bool) -> Bool {
        guard url == Self.documentURL, isMainFrame, current?.awaitingDocument == true else { return false }
        current?.awaitingDocument = false
        return true
    }

    /// Where a message posted by the page of load `generation` goes: the current load's receiver, or nowhere for
    /// a load that was replaced.
    func receiver(forGeneration generation: Int) -> (@Sendable (String) -> Void)? {
        guard let current, current.generation == generation else { return nil }
        return current.onMessage
    }

    /// Whether `generation` is the current load.
    func isCurrent(_ generation: Int) -> Bool {
        current?.generation == generation
    }

    /// Takes the current load's completion, once: later calls give nil.
    mutating func finish() -> (@Sendable (HTMLSurfaceLoadResult) -> Void)? {
        let completion = current?.completion
        current?.completion = nil
        return completion
    }
}

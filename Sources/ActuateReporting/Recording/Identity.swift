import Foundation
import Synchronization

/// Who the events are about: an anonymous id for this installation, and a user id once the app identifies one.
///
/// The anonymous id is a random UUID string created on first launch and kept in an ``IdentityStorage``, so it is
/// the same on every launch (it is never derived from `hashValue`, which changes each launch). A user id set
/// with ``Reporter/identify(userID:)`` is stored too, and comes back on the next launch.
///
/// ```swift
/// let identity = Identity(storage: FileIdentityStorage(directory: supportDirectory))
/// print(identity.anonymousID)  // the same on every launch
/// ```
///
/// When the stored identity is unreadable, a new anonymous id replaces it and the problem is reported through
/// the `onError` handler, never by crashing.
public final class Identity: Sendable {
    private struct State {
        var current: StoredIdentity
        var lastError: ReportingError?
    }

    private let storage: any IdentityStorage
    private let state: Mutex<State>
    private let onError: (@Sendable (ReportingError) -> Void)?

    /// The problem met while loading the stored identity, if there was one.
    package let loadError: ReportingError?

    /// Loads the identity from `storage`, creating and storing a new anonymous id when there is none.
    /// - Parameters:
    ///   - storage: Where the identity is kept between launches.
    ///   - onError: Called with every storage problem, on the thread that met it.
    public init(storage: any IdentityStorage, onError: (@Sendable (ReportingError) -> Void)? = nil) {
        self.storage = storage
        self.onError = onError
        var errors: [ReportingError] = []
        var loaded: StoredIdentity?
        do {
            loaded = try storage.load()
        } catch {
            errors.append(error)
        }
        let current = loaded ?? StoredIdentity(anonymousID: Identity.makeAnonymousID())
        if loaded == nil, let error = Identity.save(current, to: storage) {
            errors.append(error)
        }
        loadError = errors.first
        state = Mutex(State(current: current, lastError: errors.last))
        for error in errors { onError?(error) }
    }

    /// The anonymous id of this installation.
    public var anonymousID: String { state.withLock { $0.current.anonymousID } }

    /// The identified user, or nil.
    public var userID: String? { state.withLock { $0.current.userID } }

    /// Both ids, read together.
    package var current: StoredIdentity { state.withLock { $0.current } }

    /// The most recent storage problem, if any.
    package var lastError: ReportingError? { state.withLock { $0.lastError } }

    /// Attaches a user id to this installation's events from now on, and stores it for later launches.
    ///
    /// A failure to store it is reported through `onError`; the id still applies for this
    /// launch.
    /// - Parameter userID: The user's id in the app's own system.
    /// - Throws: ``ReportingError/invalidUserID`` when `userId` is empty.
    package func identify(userID: String) throws(ReportingError) {
        _ = try setUserID(userID)
    }

    /// Sets and stores the user id.
    /// - Returns: The storage problem, if the identity could not be stored.
    func setUserID(_ userID: String) throws(ReportingError) -> ReportingError? {
        guard !userID.trimmingWhitespace().isEmpty else { throw .invalidUserID }
        return update { $0.userID = userID }
    }

    /// Replaces the anonymous id with a new one and forgets the user id.
    ///
    /// Apps call ``Reporter/reset()``, which flushes events first.
    /// - Returns: The storage problem, if the new identity could not be stored.
    func rotate() -> ReportingError? {
        update { $0 = StoredIdentity(anonymousID: Identity.makeAnonymousID()) }
    }

    /// Changes the identity and saves it, under the lock so that saves land in the order of the changes.
    private func update(_ change: (inout StoredIdentity) -> Void) -> ReportingError? {
        let error = state.withLock { state -> ReportingError? in
            change(&state.current)
            let error = Identity.save(state.current, to: storage)
            if let error { state.lastError = error }
            return error
        }
        if let error { onError?(error) }
        return error
    }

    private static func save(_ identity: StoredIdentity, to storage: any IdentityStorage) -> ReportingError? {
        do {
            try storage.save(identity)
            return nil
        } catch {
            return error
        }
    }

    private static func makeAnonymousID() -> String {
        UUID().uuidString
    }
}

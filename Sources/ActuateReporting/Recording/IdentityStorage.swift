import Foundation
import Synchronization

/// The identity values that survive a relaunch: the anonymous id and, once identified, the user id.
public struct StoredIdentity: Sendable, Hashable, Codable {
    /// The installation's anonymous id, a UUID string.
    public var anonymousID: String
    /// The identified user, if any.
    public var userID: String?

    /// Creates stored identity values.
    /// - Parameters:
    ///   - anonymousID: The anonymous id.
    ///   - userID: The identified user.
    public init(anonymousID: String, userID: String? = nil) {
        self.anonymousID = anonymousID
        self.userID = userID
    }
}

/// Where an ``Identity`` keeps its values between launches.
public protocol IdentityStorage: Sendable {
    /// Reads the stored values.
    /// - Returns: The values, or nil when nothing has been stored yet.
    /// - Throws: ``ReportingError/corruptIdentity(path:reason:)`` when something is stored but unreadable.
    func load() throws(ReportingError) -> StoredIdentity?

    /// Replaces the stored values.
    /// - Parameter identity: The values to store.
    /// - Throws: ``ReportingError/identityStorageFailed(path:reason:)`` when they cannot be written.
    func save(_ identity: StoredIdentity) throws(ReportingError)
}

/// An ``IdentityStorage`` that keeps values in memory, for tests and for apps that want a new id each launch.
///
/// Share one instance between two ``Identity`` values to simulate a relaunch.
public final class MemoryIdentityStorage: IdentityStorage {
    private let stored: Mutex<StoredIdentity?>

    /// Creates storage holding `initial`.
    /// - Parameter initial: The values already stored, or nil for a first launch.
    public init(_ initial: StoredIdentity? = nil) {
        stored = Mutex(initial)
    }

    /// Returns the stored values.
    /// - Returns: The values, or nil when nothing has been stored.
    public func load() throws(ReportingError) -> StoredIdentity? {
        stored.withLock { $0 }
    }

    /// Replaces the stored values.
    /// - Parameter identity: The values to store.
    public func save(_ identity: StoredIdentity) throws(ReportingError) {
        stored.withLock { $0 = identity }
    }
}

/// A type that names one dependency of your actions and gives its live value.
///
/// An action is a type with static members only, so it cannot hold a server or a store of its own. It reads them
/// from its context by key instead, and whoever performs it decides the values: the app's system, a session's
/// dispatcher, or a test harness. Nothing is process-wide, so tests that give a key different values run in
/// parallel.
///
/// <!-- readme: repeats Sources/ActuateTesting/ActuateTesting.docc/DependenciesAndVirtualTime.md -->
/// ```swift
/// protocol NotesServer: Sendable {
///     func upload(_ note: String) async throws -> Int
/// }
///
/// struct HTTPNotesServer: NotesServer {
///     func upload(_ note: String) async throws -> Int { note.count }
/// }
///
/// enum NotesServerKey: DependencyKey {
///     static var liveValue: any NotesServer { HTTPNotesServer() }
/// }
/// ```
///
/// A body reads it with ``ActionContext/dependency(_:)``. In an `ActionTestHarness`, a key the test did not set
/// fails the test with the key's name, instead of reaching the live value, unless the key offers a ``testValue``.
public protocol DependencyKey: SendableMetatype {
    /// The type of the dependency.
    associatedtype Value: Sendable

    /// The value used when no one set the key: in the app, for every dispatcher, system and session.
    static var liveValue: Value { get }

    /// The value a test harness uses when its test did not set the key; nil (the default) makes reading the key
    /// in a harness fail the test.
    ///
    /// Offer one for dependencies that are safe in every test, such as an in-memory store.
    static var testValue: Value? { get }
}

extension DependencyKey {
    /// No test value: reading the key in a test harness that did not set it fails the test.
    public static var testValue: Value? { nil }

    /// The key's name in messages: its type name.
    static var keyName: String { String(describing: Self.self) }
}

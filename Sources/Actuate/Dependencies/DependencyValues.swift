/// The values of dependency keys that one dispatcher, system or test harness gives its actions.
///
/// Set a value by key; a key that was not set reads its ``DependencyKey/liveValue`` (in a test harness, its
/// ``DependencyKey/testValue``, or a test failure). Values are keyed by type, so a later setting replaces an
/// earlier one, and a replay can give every key the value it had.
///
/// ```swift
/// var dependencies = DependencyValues()
/// dependencies[NotesServerKey.self] = InMemoryNotesServer()
/// ```
public struct DependencyValues: Sendable {
    /// The values set, by the key type's identity.
    var values: [ObjectIdentifier: any Sendable]
    /// Called with a key's name when a body reads a key that was not set and has no test value; nil outside tests,
    /// where such a key reads its live value.
    package var unsetKeyHandler: (@Sendable (_ keyName: String) -> Void)?

    /// Creates empty values: every key reads its live value.
    public init() {
        self.values = [:]
        self.unsetKeyHandler = nil
    }

    /// Creates values for a test kit: a key that was not set reads its test value, or, when it has none, calls
    /// `unsetKeyHandler` and throws ``DependencyNotSetError``.
    ///
    /// - Parameter unsetKeyHandler: Told the key's name.
    package init(unsetKeyHandler: @escaping @Sendable (_ keyName: String) -> Void) {
        self.values = [:]
        self.unsetKeyHandler = unsetKeyHandler
    }

    /// The value set for `key`, or nil when it was not set; setting nil removes the value.
    ///
    /// - Parameter key: The key.
    public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value? {
        get { values[ObjectIdentifier(key)].map { $0 as! Key.Value } }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    /// Whether no key was set and no test kit watches unset keys: a dispatcher with such values carries none.
    var isLiveAndEmpty: Bool { values.isEmpty && unsetKeyHandler == nil }

    /// The value `key` reads: the value set, else the live value, or in a test kit the test value.
    ///
    /// - Parameter key: The key.
    /// - Returns: The value.
    /// - Throws: ``DependencyNotSetError`` in a test kit, for a key that was not set and has no test value.
    func resolve<Key: DependencyKey>(_ key: Key.Type) throws(DependencyNotSetError) -> Key.Value {
        if let value = self[key] { return value }
        guard let unsetKeyHandler else { return Key.liveValue }
        if let value = Key.testValue { return value }
        unsetKeyHandler(Key.keyName)
        throw DependencyNotSetError(keyName: Key.keyName)
    }
}

/// Casts `object` to `Target` without a runtime check, where the code that installed it proves its type.
///
/// Use it only where one initializer both creates an object of exactly `Target` and installs the closure that
/// casts it back (see `RequestOperation.makeNotifier()`). Debug builds check the claim.
@inlinable
func castKnownType<Target: AnyObject>(_ object: AnyObject, to target: Target.Type) -> Target {
    assert(object is Target, "castKnownType: \(type(of: object)) is not \(Target.self)")
    return unsafeDowncast(object, to: target)
}

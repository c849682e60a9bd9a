/// What a feature is besides a ``FeatureDefinition``: a group, a conditional feature, a URL-mapped feature.
///
/// Setup asks these questions of every feature. A runtime cast (`feature as? any FeatureGroup.Type`) answers them
/// exactly, but its first answer about a type scans every protocol conformance record of every loaded image (about
/// 290,000 instructions here, three questions per feature at every launch). The feature's own witnesses
/// (`FeatureDefinition._featureGroup` and its two siblings) answer them for nothing, and exactly wherever the
/// compiler chose them knowing every conformance of the type:
/// - a witness that names the feature is always right: only a type that conforms gets it, and a subclass inherits
///   its superclass's conformance;
/// - a nil witness is trusted for a struct, an enum or a class without a superclass, when the type is not generic.
///   A subclass inherits its superclass's witness, which cannot see the subclass's own conformances; a generic type's
///   witness cannot see a conditional conformance (`extension Box: URLMapped where Content == Text`). For those the
///   runtime's cast answers.
///
/// A conformance declared in another module than the type's ``FeatureDefinition`` conformance is not seen. Swift 6
/// warns on such a retroactive conformance (SE-0364) only when the type and the protocol both come from other
/// packages; the requirements' documentation tells apps to declare a feature's kinds where they declare the feature.
enum FeatureKinds {
    /// `feature` as a ``FeatureGroup``, or nil.
    static func group(of feature: any FeatureDefinition.Type) -> (any FeatureGroup.Type)? {
        if let group = feature._featureGroup { return group }
        return witnessesAreComplete(for: feature) ? nil : feature as? any FeatureGroup.Type
    }

    /// `feature` as a ``ConditionalFeature``, or nil.
    static func conditional(of feature: any FeatureDefinition.Type) -> (any ConditionalFeature.Type)? {
        if let conditional = feature._conditionalFeature { return conditional }
        return witnessesAreComplete(for: feature) ? nil : feature as? any ConditionalFeature.Type
    }

    /// `feature` as a ``URLMapped`` feature, or nil.
    static func urlMapped(of feature: any FeatureDefinition.Type) -> (any URLMapped.Type)? {
        if let mapped = feature._urlMapped { return mapped }
        return witnessesAreComplete(for: feature) ? nil : feature as? any URLMapped.Type
    }

    /// Whether a nil witness of `feature` means that the type does not conform: it is not a subclass and not
    /// generic.
    ///
    /// Neither question scans conformance records: a cast to `AnyClass` reads the metadata's kind, and the runtime's
    /// qualified type name shows the generic arguments of the type and of every type it is nested in.
    static func witnessesAreComplete(for feature: any FeatureDefinition.Type) -> Bool {
        if let type = feature as? AnyClass, _getSuperclass(type) != nil { return false }
        return !TypeNaming.name(of: feature, qualified: true).utf8.contains(UInt8(ascii: "<"))
    }
}

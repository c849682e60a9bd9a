import ActuateCore

/// A plain feature whose module declares no other kind of it: `FeatureKindsTests` adds a conformance to it from
/// another module, to show the limit that `FeatureDefinition._featureGroup` documents (Swift warns about such a
/// conformance only when the type and the protocol come from other packages). Nothing else may extend it.
final class RetroactivelyRoutedFeature: Feature {}

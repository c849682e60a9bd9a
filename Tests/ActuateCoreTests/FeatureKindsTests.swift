import Foundation
import Testing

@testable import ActuateCore
@testable import ActuateFixtures

// One feature of each shape that is at once a group, a conditional feature and a URL-mapped feature, each with a
// subfeature of its own, a constraint that keeps it unavailable and one route. Setup must find all three kinds
// whatever the shape: the struct, the enum and the root class from their witnesses, the subclass and the generic
// type from the runtime (their witnesses cannot see these conformances).

private struct KindsStructLeaf: Feature {}
private enum KindsEnumLeaf: Feature {}
private final class KindsClassLeaf: Feature {}
private final class KindsSubclassLeaf: Feature {}
private struct KindsGenericLeaf: Feature {}

private struct KindsStruct: FeatureGroup, ConditionalFeature, URLMapped {
    static let subfeatures: [any FeatureDefinition.Type] = [KindsStructLeaf.self]
    static let open = action(NoOpAction.self)
    static func constraints(requirements: FeatureConstraintsBuilder) {
        requirements.userToggled(defaultValue: false)
    }
    static func urlMappings(routes: URLMappingsBuilder<Self>) { routes.send("kinds/struct", to: open) }
}

private enum KindsEnum: FeatureGroup, ConditionalFeature, URLMapped {
    static let subfeatures: [any FeatureDefinition.Type] = [KindsEnumLeaf.self]
    static let open = action(NoOpAction.self)
    static func constraints(requirements: FeatureConstraintsBuilder) {
        requirements.userToggled(defaultValue: false)
    }
    static func urlMappings(routes: URLMappingsBuilder<Self>) { routes.send("kinds/enum", to: open) }
}

private final class KindsClass: FeatureGroup, ConditionalFeature, URLMapped {
    static let subfeatures: [any FeatureDefinition.Type] = [KindsClassLeaf.self]
    static let open = action(NoOpAction.self)
    static func constraints(requirements: FeatureConstraintsBuilder) {
        requirements.userToggled(defaultValue: false)
    }
    static func urlMappings(routes: URLMappingsBuilder<KindsClass>) { routes.send("kinds/class", to: open) }
}

/// A plain feature; its subclass adds the three kinds, so the witnesses it inherits (from this conformance) say nil.
private class KindsBase: Feature {}

private final class KindsSubclass: KindsBase, FeatureGroup, ConditionalFeature, URLMapped {
    static let subfeatures: [any FeatureDefinition.Type] = [KindsSubclassLeaf.self]
    static let open: ConditionalActionBinding<KindsSubclass, NoOpAction> = action(NoOpAction.self)
    static func constraints(requirements: FeatureConstraintsBuilder) {
        requirements.userToggled(defaultValue: false)
    }
    static func urlMappings(routes: URLMappingsBuilder<KindsSubclass>) { routes.send("kinds/subclass", to: open) }
}

/// A generic feature that has the three kinds only for one argument: its witnesses, chosen for every argument, say
/// nil.
private struct KindsGeneric<Content>: Feature {}

extension KindsGeneric: FeatureGroup, ConditionalFeature, URLMapped where Content == Int {
    static var subfeatures: [any FeatureDefinition.Type] { [KindsGenericLeaf.self] }
    static var open: ConditionalActionBinding<Self, NoOpAction> { action(NoOpAction.self) }
    static func constraints(requirements: FeatureConstraintsBuilder) {
        requirements.userToggled(defaultValue: false)
    }
    static func urlMappings(routes: URLMappingsBuilder<Self>) { routes.send("kinds/generic", to: open) }
}

/// A root class whose URLMapped conformance is declared apart from the type, as an extension: the module's
/// witnesses still see it (the compiler chooses them knowing every conformance in the module).
private final class KindsExtendedLater: Feature {}

extension KindsExtendedLater: URLMapped {
    static func urlMappings(routes: URLMappingsBuilder<KindsExtendedLater>) {}
}

// The documented limit: a conformance declared in another module than the type's FeatureDefinition conformance.
extension RetroactivelyRoutedFeature: URLMapped {
    public static func urlMappings(routes: URLMappingsBuilder<RetroactivelyRoutedFeature>) {}
}

@Suite("Feature kinds")
struct FeatureKindsTests {
    /// Each shape, its subfeature and the path of its route.
    static let shapes: [(any FeatureDefinition.Type, any FeatureDefinition.Type, String)] = [
        (KindsStruct.self, KindsStructLeaf.self, "kinds/struct"),
        (KindsEnum.self, KindsEnumLeaf.self, "kinds/enum"),
        (KindsClass.self, KindsClassLeaf.self, "kinds/class"),
        (KindsSubclass.self, KindsSubclassLeaf.self, "kinds/subclass"),
        (KindsGeneric<Int>.self, KindsGenericLeaf.self, "kinds/generic"),
    ]

    @Test(
        "a feature's kinds are the runtime's answers, for every shape of type",
        arguments: [
            KindsStruct.self, KindsEnum.self, KindsClass.self, KindsSubclass.self, KindsGeneric<Int>.self,
            KindsGeneric<String>.self, KindsBase.self, KindsStructLeaf.self, KindsEnumLeaf.self, KindsClassLeaf.self,
        ] as [any FeatureDefinition.Type]
    )
    func kindsMatchTheRuntime(feature: any FeatureDefinition.Type) {
        #expect((FeatureKinds.group(of: feature) != nil) == (feature is any FeatureGroup.Type))
        #expect((FeatureKinds.conditional(of: feature) != nil) == (feature is any ConditionalFeature.Type))
        #expect((FeatureKinds.urlMapped(of: feature) != nil) == (feature is any URLMapped.Type))
    }

    @Test("the witnesses are trusted for a struct, an enum and a root class, not for a subclass or a generic type")
    func whereWitnessesAreTrusted() {
        #expect(FeatureKinds.witnessesAreComplete(for: KindsStruct.self))
        #expect(FeatureKinds.witnessesAreComplete(for: KindsEnum.self))
        #expect(FeatureKinds.witnessesAreComplete(for: KindsClass.self))
        #expect(FeatureKinds.witnessesAreComplete(for: KindsBase.self))
        #expect(!FeatureKinds.witnessesAreComplete(for: KindsSubclass.self))
        #expect(!FeatureKinds.witnessesAreComplete(for: KindsGeneric<Int>.self))
        #expect(!FeatureKinds.witnessesAreComplete(for: KindsGeneric<String>.self))
        #expect(FeatureKinds.urlMapped(of: KindsExtendedLater.self) != nil)
        // What the witnesses alone would miss, read through the FeatureDefinition conformance as setup reads them.
        let subclass: any FeatureDefinition.Type = KindsSubclass.self
        let generic: any FeatureDefinition.Type = KindsGeneric<Int>.self
        #expect(subclass._featureGroup == nil && subclass._conditionalFeature == nil && subclass._urlMapped == nil)
        #expect(generic._featureGroup == nil && generic._conditionalFeature == nil && generic._urlMapped == nil)
    }

    @Test("registering a group of any shape prepares its subfeature under the group's path", arguments: 0..<5)
    func registryWalksEveryShape(shape: Int) throws {
        let (group, leaf, _) = Self.shapes[shape]
        let registered = try FeatureRegistry.shared.register(group)
        #expect(registered.map(\.typeID) == [ObjectIdentifier(group), ObjectIdentifier(leaf)])
        #expect(registered.last?.parentPath == registered.first?.path)
    }

    @Test("availability reads the constraints of a conditional feature of any shape", arguments: 0..<5)
    func availabilitySeesEveryShape(shape: Int) throws {
        let (group, leaf, _) = Self.shapes[shape]
        let availability = FeatureAvailability()
        try availability.register(group)
        #expect(availability.report(for: group).isRegistered)
        #expect(availability.isAvailable(group) == false)
        #expect(availability.report(for: leaf).parentAvailable == false)
    }

    @Test("a router registers the routes of a URL-mapped feature of any shape", arguments: 0..<5)
    func routerSeesEveryShape(shape: Int) throws {
        let (group, _, path) = Self.shapes[shape]
        let router = URLRouter(configuration: URLRouterConfiguration(appSchemes: ["kinds"]))
        try router.register(group)
        let match = router.resolve(try #require(URL(string: "kinds://\(path)")))
        #expect(match?.pattern == path)
    }

    @Test("a conformance added in another module than the type's is not seen: the limit the requirements document")
    func retroactiveConformanceIsNotSeen() {
        let feature: any FeatureDefinition.Type = RetroactivelyRoutedFeature.self
        #expect(feature is any URLMapped.Type)
        #expect(FeatureKinds.witnessesAreComplete(for: feature))
        #expect(FeatureKinds.urlMapped(of: feature) == nil)
    }
}

import ActuateTesting
import Foundation
import Synchronization
import Testing

@testable import ActuateCore

/// A permission checker whose answers change without notifying anyone, like a source that cannot observe.
final class SilentPermissionChecker: PermissionChecker {
    private let status = Mutex(PermissionStatus.denied)

    func set(_ newStatus: PermissionStatus) { status.withLock { $0 = newStatus } }

    func status(of permission: Permission) -> PermissionStatus { status.withLock { $0 } }

    func observeChanges(_ handler: @escaping @Sendable (Permission) -> Void) -> ChangeSubscription {
        ChangeSubscription {}
    }
}

@Suite("Feature constraints")
struct FeatureConstraintsTests {
    static let linux = RuntimePlatform(kind: .linux, version: PlatformVersion(6, 8))

    @Test(
        "platform versions: listed platforms at or above their version qualify; others never do",
        arguments: [
            (RuntimePlatform(kind: .iOS, version: PlatformVersion(18, 0)), true, false),
            (RuntimePlatform(kind: .iOS, version: PlatformVersion(18, 2, 1)), true, true),
            (RuntimePlatform(kind: .iOS, version: PlatformVersion(17, 5)), false, false),
            (RuntimePlatform(kind: .macOS, version: PlatformVersion(15, 1)), true, true),
            (RuntimePlatform(kind: .macOS, version: PlatformVersion(14, 9)), false, false),
            (RuntimePlatform(kind: .visionOS, version: PlatformVersion(2)), false, true),
            (RuntimePlatform(kind: .linux, version: PlatformVersion(5, 15)), true, false),
            (RuntimePlatform(kind: .tvOS, version: PlatformVersion(99)), false, false),
            (RuntimePlatform(kind: .other("Windows"), version: PlatformVersion(99)), false, false),
        ]
    )
    func platforms(platform: RuntimePlatform, modern: Bool, apple: Bool) {
        let availability = ConstraintFixtures.availability(platform: platform)
        #expect(availability.isAvailable(ModernPlatformsFeature.self) == modern)
        #expect(availability.isAvailable(ApplePlatformsFeature.self) == apple)
        #expect(availability.isAvailable(UnconstrainedFeature.self) == true)
    }

    @Test("an unknown platform never satisfies a platform requirement, even one that names it")
    func unknownPlatform() {
        let windows = RuntimePlatform(kind: .other("Windows"), version: PlatformVersion(11))
        #expect(!PlatformRequirement(.other("Windows")).isSatisfied(by: windows))
        #expect(PlatformRequirement.linux.isSatisfied(by: Self.linux))
    }

    @Test(
        "Mac Catalyst is iOS at the iOS version macOS runs it as, not at the macOS version",
        arguments: [
            (PlatformVersion(15, 2), PlatformVersion(18, 2)),
            (PlatformVersion(15, 0, 1), PlatformVersion(18, 0, 1)),
            (PlatformVersion(14, 6), PlatformVersion(17, 6)),
            (PlatformVersion(26, 1), PlatformVersion(26, 1)),
            (PlatformVersion(13, 0), PlatformVersion(16, 1)),
            (PlatformVersion(12, 0), PlatformVersion(15, 0)),
            (PlatformVersion(12, 3), PlatformVersion(15, 4)),
            (PlatformVersion(11, 0), PlatformVersion(14, 2)),
            (PlatformVersion(10, 15, 7), PlatformVersion(13, 1)),
        ]
    )
    func macCatalystVersion(macOS: PlatformVersion, iOS: PlatformVersion) {
        let catalyst = RuntimePlatform.macCatalyst(macOSVersion: macOS)
        #expect(catalyst == RuntimePlatform(kind: .iOS, version: iOS))
    }

    @Test("an .iOS(18) requirement holds for a Catalyst app on macOS 15, and not on macOS 14")
    func macCatalystRequirement() {
        // Compared with the macOS version (15.2), as before, the feature read as unavailable on every Mac.
        #expect(PlatformRequirement.iOS(18).isSatisfied(by: .macCatalyst(macOSVersion: PlatformVersion(15, 2))))
        #expect(!PlatformRequirement.iOS(18).isSatisfied(by: .macCatalyst(macOSVersion: PlatformVersion(14, 7))))
        #expect(!PlatformRequirement.macOS(15).isSatisfied(by: .macCatalyst(macOSVersion: PlatformVersion(15, 2))))
        let availability = ConstraintFixtures.availability(platform: .macCatalyst(macOSVersion: PlatformVersion(15, 2)))
        #expect(availability.isAvailable(ModernPlatformsFeature.self) == true)
    }

    @Test("the current platform is detected")
    func currentPlatform() {
        #if os(Linux)
        #expect(RuntimePlatform.current.kind == .linux)
        #expect(ConstraintFixtures.availability(platform: .current).isAvailable(ModernPlatformsFeature.self) == true)
        #elseif os(macOS)
        #expect(RuntimePlatform.current.kind == .macOS)
        #endif
        #expect(RuntimePlatform.current.version > PlatformVersion(0))
    }

    @Test("runtime flags: isEnabled true, false and unknown; a closure check")
    func runtimeFlags() {
        let availability = ConstraintFixtures.availability()
        #expect(availability.isAvailable(RuntimeOnFeature.self) == true)
        #expect(availability.isAvailable(RuntimeOffFeature.self) == false)
        #expect(availability.isAvailable(RuntimeUnknownFeature.self) == nil)
        #expect(availability.isAvailable(ClosureRuntimeFeature.self) == true)
        #expect(
            availability.report(for: ClosureRuntimeFeature.self).constraints.map(\.constraint)
                == ["runtime: server says yes"]
        )
    }

    @Test("user toggles: the default applies until the user chooses; keys default to the feature path")
    func userToggles() {
        let toggles = InMemoryUserToggles()
        let availability = ConstraintFixtures.availability(toggles: toggles)
        #expect(availability.isAvailable(ToggledOnFeature.self) == true)
        #expect(availability.isAvailable(ToggledOffFeature.self) == false)
        #expect(availability.isAvailable(DarkModeFeature.self) == false)

        toggles.setEnabled(false, for: ToggledOnFeature.identifier.description)
        toggles.setEnabled(true, for: "dark-mode")
        #expect(availability.isAvailable(ToggledOnFeature.self) == false)
        #expect(availability.isAvailable(DarkModeFeature.self) == true)
        #expect(ToggledOnFeature.identifier.description == "ConstraintFixtures/ToggledOnFeature")

        #expect(availability.setUserToggle(ToggledOffFeature.self, enabled: true))
        #expect(availability.isAvailable(ToggledOffFeature.self) == true)
        #expect(!availability.setUserToggle(ProFeature.self, enabled: true))
    }

    @Test("a toggle that changes while a result is cached gives the new result at once")
    func cachedResultInvalidatedByToggle() {
        let toggles = InMemoryUserToggles()
        let permissions = InMemoryPermissionChecker([.camera: .authorized])
        let availability = ConstraintFixtures.availability(toggles: toggles, permissions: permissions)
        #expect(availability.isAvailable(ToggledOffFeature.self) == false)
        #expect(availability.isAvailable(CameraFeature.self) == true)
        #expect(availability.isAvailable(CameraFeature.self) == true)
        #expect(permissions.checkedPermissions == [.camera], "the second answer came from the cache")

        toggles.setEnabled(true, for: ToggledOffFeature.identifier.description)
        #expect(availability.isAvailable(ToggledOffFeature.self) == true)
        #expect(availability.isAvailable(CameraFeature.self) == true)
        #expect(permissions.checkedPermissions == [.camera, .camera], "the change emptied the whole cache")
    }

    @Test("permissions: not determined is unknown, authorized is available, denied and restricted are not")
    func permissions() {
        let permissions = InMemoryPermissionChecker()
        let availability = ConstraintFixtures.availability(permissions: permissions)
        #expect(availability.isAvailable(CameraFeature.self) == nil)
        #expect(availability.report(for: CameraFeature.self).undetermined == ["permission: camera"])
        for (status, expected) in [
            (PermissionStatus.authorized, true), (.denied, false), (.restricted, false),
            (.notDetermined, nil),
        ] as [(PermissionStatus, Bool?)] {
            permissions.setStatus(status, for: .camera)
            #expect(availability.isAvailable(CameraFeature.self) == expected, "\(status)")
        }
    }

    @Test("purchases: not validated is unknown, then purchased or not")
    func purchases() {
        let purchases = InMemoryPurchaseValidator()
        let availability = ConstraintFixtures.availability(purchases: purchases)
        #expect(availability.isAvailable(ProFeature.self) == nil)
        purchases.setPurchased(true, for: "com.example.pro")
        #expect(availability.isAvailable(ProFeature.self) == true)
        purchases.setPurchased(false, for: "com.example.pro")
        #expect(availability.isAvailable(ProFeature.self) == false)
        #expect(availability.report(for: ProFeature.self).unsatisfied == ["purchase: com.example.pro"])
    }

    @Test("one unsatisfied constraint makes a feature unavailable even while others are unknown")
    func falseBeatsUnknown() {
        let toggles = InMemoryUserToggles()
        let availability = ConstraintFixtures.availability(toggles: toggles)
        #expect(availability.isAvailable(MixedFeature.self) == false)
        toggles.setEnabled(true, for: MixedFeature.identifier.description)
        #expect(availability.isAvailable(MixedFeature.self) == nil)
        let report = availability.report(for: MixedFeature.self)
        #expect(report.undetermined == ["permission: microphone", "purchase: com.example.mixed"])
        #expect(report.description.contains("unknown"))
    }

    @Test("a source that cannot notify needs invalidate(); until then the cached answer stands")
    func manualInvalidation() {
        let silent = SilentPermissionChecker()
        let availability = ConstraintFixtures.availability(permissions: silent)
        #expect(availability.isAvailable(CameraFeature.self) == false)
        silent.set(.authorized)
        #expect(availability.isAvailable(CameraFeature.self) == false, "cached")
        availability.invalidate()
        #expect(availability.isAvailable(CameraFeature.self) == true)
    }

    @Test("UserDefaults toggles persist under a prefix, notify, and drive availability")
    func userDefaultsToggles() throws {
        let suite = "actuate.tests.\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let toggles = UserDefaultsUserToggles(defaults: defaults)
        let availability = ConstraintFixtures.availability(toggles: toggles)
        #expect(toggles.isEnabled("dark-mode") == nil)
        #expect(availability.isAvailable(DarkModeFeature.self) == false)

        toggles.setEnabled(true, for: "dark-mode")
        #expect(defaults.bool(forKey: "actuate.toggle.dark-mode"))
        #expect(UserDefaultsUserToggles(defaults: defaults).isEnabled("dark-mode") == true)
        #expect(availability.isAvailable(DarkModeFeature.self) == true)

        toggles.setEnabled(nil, for: "dark-mode")
        #expect(toggles.isEnabled("dark-mode") == nil)
        #expect(availability.isAvailable(DarkModeFeature.self) == false)
    }

    @Test("change handlers stop when their subscription is cancelled or released")
    func subscriptions() {
        let toggles = InMemoryUserToggles()
        let heard = Mutex<[String]>([])
        let kept = toggles.observeChanges { key in heard.withLock { $0.append("kept:\(key)") } }
        var released: ChangeSubscription? = toggles.observeChanges { key in heard.withLock { $0.append("gone:\(key)") }
        }
        toggles.setEnabled(true, for: "a")
        released = nil
        toggles.setEnabled(true, for: "b")
        toggles.setEnabled(true, for: "b")
        kept.cancel()
        toggles.setEnabled(false, for: "c")
        #expect(released == nil)
        #expect(heard.withLock { $0 } == ["kept:a", "gone:a", "kept:b"])
    }

    @Test("availability is a debug report section listing every registered feature")
    func debugReport() throws {
        let availability = ConstraintFixtures.availability()
        let json = try JSONDecoder().decode([FeatureAvailabilityReport].self, from: availability.debugReportJSON())
        #expect(json.count == availability.reports().count)
        #expect(json.first?.path.description == "ConstraintFixtures")
        #expect(json.contains { $0.path.components.last == "RuntimeOffFeature" && $0.isAvailable == false })
        #expect(availability.debugReportText().contains("ConstraintFixtures/CameraFeature: unknown"))
    }
}

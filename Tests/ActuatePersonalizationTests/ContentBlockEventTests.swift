import ActuateReporting
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins

@Suite("ContentBlockEvent")
struct ContentBlockEventTests {
    /// Shows `block` in "home" and returns the placeholder and its surface.
    private func show(
        _ block: ContentBlock,
        _ fixture: ContentBlockFixture
    ) async -> (ContentBlockManager, ContentBlockPlaceholder, InstantHTMLSurface) {
        let manager = fixture.makeManager(ScriptedContentBlockSource([block]))
        let surface = InstantHTMLSurface()
        let placeholder = await manager.loadedPlaceholder(surface: surface).placeholder
        return (manager, placeholder, surface)
    }

    @Test("Show, click, close and error events carry the placeholder, block id, name, variant and type")
    func eventProperties() async throws {
        let fixture = ContentBlockFixture()
        var block = ContentBlock.test("hero", name: "Spring hero")
        block.type = "banner"
        let (manager, placeholder, surface) = await show(block, fixture)
        surface.postFromBridge(#"{"action": "click", "link": "shop://product/p1", "text": "See p1"}"#)
        surface.postFromBridge(#"{"action": "explode"}"#)
        surface.postFromBridge(#"{"action": "close"}"#)
        await manager.waitUntilIdle()
        #expect(placeholder.contentBlock == nil)
        let events = try fixture.blockEvents()
        #expect(events.map(\.type) == ["executed", "target", "error", "close"])
        for event in events {
            #expect(event.properties[ReportEventKey.contentSource] == "contentBlock")
            #expect(event.properties[ReportEventKey.actionID] == "hero")
            #expect(event.properties[ReportEventKey.actionName] == "Spring hero")
            #expect(event.properties[ContentBlockEventKey.placeholder] == "home")
            #expect(event.properties[ContentBlockEventKey.variantID] == "v-hero")
            #expect(event.properties[ContentBlockEventKey.variantName] == "Variant of hero")
            #expect(event.properties[ContentBlockEventKey.blockType] == "banner")
            #expect(!event.isTrackingForced)
        }
        #expect(events[1].properties[ReportEventKey.href] == "shop://product/p1")
        #expect(events[1].properties[ContentBlockEventKey.text] == "See p1")
        #expect(events[2].properties[ReportEventKey.message]?.stringValue?.contains("unknown action") == true)
        #expect(events[3].properties[ContentBlockEventKey.interaction] == true)
    }

    @Test("Showing, clicking and closing are actions of the personalization feature in the timeline")
    func timeline() async throws {
        let fixture = ContentBlockFixture()
        let (manager, placeholder, surface) = await show(.test("hero", name: "Spring hero"), fixture)
        surface.postFromBridge(#"{"action": "click", "link": "https://shop.example.com/hero", "text": "Open"}"#)
        surface.postFromBridge(#"{"action": "close"}"#)
        await manager.waitUntilIdle()
        #expect(placeholder.contentBlock == nil)
        let entries = fixture.timeline.snapshot()
        try #require(entries.count == 3)
        #expect(entries.map(\.actionName) == ["Show Content Block", "Click Content Block", "Close Content Block"])
        #expect(entries.allSatisfy { $0.featureName == PersonalizationFeature.name })
        #expect(entries.allSatisfy { $0.sessionName == "content-blocks" })
        #expect(entries[0].inputDescription == #"home hero "Spring hero" show"#)
        #expect(entries[1].inputDescription == #"home hero "Spring hero" click https://shop.example.com/hero"#)
        #expect(entries[2].inputDescription == #"home hero "Spring hero" close by user"#)
        #expect(entries.allSatisfy { $0.outcome == .success })
    }

    @Test("A block whose server consent is absent is tracked; one whose consent is false is not")
    func serverConsent() async throws {
        let absent = ContentBlockFixture()
        _ = await show(.test("hero", hasTrackingConsent: nil), absent)
        #expect(try absent.eventSummary() == ["executed:hero"])

        let refused = ContentBlockFixture()
        let (manager, placeholder, surface) = await show(.test("hero", hasTrackingConsent: false), refused)
        surface.postFromBridge(#"{"action": "click", "link": "https://shop.example.com/hero", "text": "Open"}"#)
        await manager.waitUntilIdle()
        #expect(try refused.blockEvents().isEmpty)
        #expect(placeholder.contentBlock?.id == "hero")
        #expect(refused.timeline.snapshot().map(\.actionName) == ["Show Content Block", "Click Content Block"])
    }

    @Test("A link with xnpe_force_track=true records the click whatever the consent, tagged tracking_forced")
    func forceTrack() async throws {
        let fixture = ContentBlockFixture()
        fixture.reporter.setTrackingConsent(.denied)
        let (manager, placeholder, surface) = await show(.test("hero", hasTrackingConsent: false), fixture)
        surface.postFromBridge(
            #"{"action": "click", "link": "https://shop.example.com/hero?xnpe_force_track=true", "text": "Go"}"#
        )
        surface.postFromBridge(
            #"{"action": "click", "link": "https://shop.example.com/hero?xnpe_force_track=false", "text": "Go"}"#
        )
        await manager.waitUntilIdle()
        #expect(placeholder.contentBlock?.id == "hero")
        let events = try fixture.blockEvents()
        #expect(events.count == 1)
        #expect(events.first?.type == "target")
        #expect(events.first?.isTrackingForced == true)
        #expect(events.first?.properties[ReportEventKey.trackingForced] == true)
    }

    @Test("The reporter's consent gates the default tracking")
    func reporterConsent() async throws {
        let fixture = ContentBlockFixture()
        fixture.reporter.setTrackingConsent(.denied)
        let (manager, placeholder, surface) = await show(.test("hero"), fixture)
        surface.postFromBridge(#"{"action": "close"}"#)
        await manager.waitUntilIdle()
        #expect(placeholder.contentBlock == nil)
        #expect(try fixture.blockEvents().isEmpty)
        #expect(fixture.reporter.suppressedEventCount >= 2)
    }

    @Test("The without-consent variants record whatever the consent, tagged tracking_forced")
    func withoutConsentVariants() async throws {
        let fixture = ContentBlockFixture()
        fixture.reporter.setTrackingConsent(.denied)
        let block = ContentBlock.test("hero", hasTrackingConsent: false)
        let manager = fixture.makeManager(ScriptedContentBlockSource([block]))
        manager.trackShow(placeholderID: "home", contentBlock: block)
        manager.trackClick(
            placeholderID: "home",
            contentBlock: block,
            link: ContentBlockLink(url: "https://x.example")
        )
        manager.trackClose(placeholderID: "home", contentBlock: block)
        manager.trackError(placeholderID: "home", contentBlock: block, errorMessage: "broken")
        await manager.waitUntilIdle()
        #expect(try fixture.blockEvents().isEmpty)

        manager.trackShowWithoutTrackingConsent(placeholderID: "home", contentBlock: block)
        manager.trackClickWithoutTrackingConsent(
            placeholderID: "home",
            contentBlock: block,
            link: ContentBlockLink(url: "https://x.example", text: "X")
        )
        manager.trackCloseWithoutTrackingConsent(placeholderID: "home", contentBlock: block, userInteraction: false)
        manager.trackErrorWithoutTrackingConsent(placeholderID: "home", contentBlock: nil, errorMessage: "no source")
        await manager.waitUntilIdle()
        let events = try fixture.blockEvents()
        #expect(Set(events.map(\.type)) == ["executed", "target", "close", "content_block_error"])
        #expect(events.allSatisfy { $0.isTrackingForced })
        let error = try #require(events.first { $0.type == "content_block_error" })
        #expect(error.properties[ContentBlockEventKey.placeholder] == "home")
        #expect(error.properties[ReportEventKey.message] == "no source")
    }
}

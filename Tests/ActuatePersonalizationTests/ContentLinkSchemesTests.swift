import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins

@Suite("Link schemes content may report")
struct ContentLinkSchemesTests {
    static let routes = URLRouterConfiguration(appSchemes: ["Shop", "myapp"], universalLinkHosts: ["shop.example.com"])

    @Test("by default: http, https, mailto and tel, for content actions and content blocks alike")
    func webByDefault() {
        #expect(ContentBridge.standard.allowedSchemes == ["http", "https", "mailto", "tel"])
        #expect(ContentBlockConfiguration().allowedLinkSchemes == ["http", "https", "mailto", "tel"])
    }

    @Test("wired through the app's routes: its own schemes besides the web's")
    func appSchemesFromRoutes() {
        let expected: Set = ["http", "https", "mailto", "tel", "shop", "myapp"]
        #expect(ContentLinkSchemes.allowed(by: Self.routes) == expected)
        #expect(ContentBridge(routes: Self.routes).allowedSchemes == expected)
    }

    @Test(
        "javascript:, data:, blob:, file: and their kin never reach the app, even when a list names them",
        arguments: ["javascript", "JavaScript", "data", "blob", "file", "vbscript", "filesystem", "about"]
    )
    func neverAllowed(scheme: String) throws {
        let routes = URLRouterConfiguration(appSchemes: [scheme, "shop"])
        #expect(!ContentLinkSchemes.allowed(by: routes).contains(scheme.lowercased()))
        let bridge = ContentBridge(allowedSchemes: [scheme, "https"])
        #expect(bridge.allowedSchemes == ["https"])
        var widened = ContentBridge(routes: routes)
        widened.allowedSchemes.insert(scheme.lowercased())
        let href = "\(scheme):alert(1)"
        let message = #"{"status":"target","href":"\#(href)","arg":"","token":"t"}"#
        #expect(
            BridgeMessage.parse(message, actionID: 1, bridge: widened, token: BridgeToken("t"))
                == .failure(.disallowedHref(href))
        )
        let document = try #require(
            ContentAction(id: 1, contentType: "text/html", content: "<a href='x'>x</a>")
                .contentHtmlDoc(bridge: widened, token: BridgeToken("t"))
        )
        #expect(!document.contains("\"\(scheme.lowercased()):\""), "the page's bridge would report the scheme")
        #expect(document.contains("\"shop:\""))
        #expect(throws: ContentBlockError.self) {
            try ContentBlockLink(checking: href, text: nil, allowedSchemes: [scheme.lowercased(), "https"])
        }
        var configuration = ContentBlockConfiguration(allowedLinkSchemes: [scheme, "https"])
        #expect(configuration.allowedLinkSchemes == ["https"])
        configuration.allowedLinkSchemes.insert(scheme.lowercased())
        #expect(throws: ContentBlockError.self) {
            try ContentBlockLink(checking: href, text: nil, allowedSchemes: configuration.allowedLinkSchemes)
        }
    }

    @Test("a deep link in the app's scheme is reported by content actions and accepted by content blocks")
    func deepLinkAccepted() throws {
        let bridge = ContentBridge(routes: Self.routes)
        let message = #"{"status":"target","href":"shop://product/p1","arg":"","token":"t"}"#
        let clicked = try BridgeMessage.parse(message, actionID: 7, bridge: bridge, token: BridgeToken("t")).get()
        #expect(clicked.href == "shop://product/p1")
        #expect(
            BridgeMessage.parse(message, actionID: 7, bridge: .standard, token: BridgeToken("t"))
                == .failure(.disallowedHref("shop://product/p1"))
        )
        let allowed = ContentLinkSchemes.allowed(by: Self.routes)
        let action = try ContentBlockLink(checking: "SHOP://product/p1", text: "Pick", allowedSchemes: allowed)
        #expect(action.url == "SHOP://product/p1")
        #expect(throws: ContentBlockError.self) {
            try ContentBlockLink(checking: "other://product/p1", text: nil, allowedSchemes: allowed)
        }
    }

    @Test("malformed schemes are left out of an explicit list", arguments: ["", "1app", "my app", "ap/p", "é"])
    func malformedSchemesDropped(scheme: String) {
        #expect(ContentLinkSchemes.checked([scheme, "Https"]) == ["https"])
    }

    @Test("a content-block configuration routed through a system takes its router, session and app schemes")
    func routedConfiguration() throws {
        let shop = try DeepLinkShop()
        let configuration = ContentBlockConfiguration(allowedLinkSchemes: ["https"]).routed(through: shop.system)
        #expect(configuration.router === shop.system.router)
        #expect(configuration.actionSession.name == shop.system.mainSession.name)
        #expect(configuration.allowedLinkSchemes == ["http", "https", "mailto", "tel", "shop"])
    }
}

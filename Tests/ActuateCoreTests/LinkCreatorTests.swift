import ActuateTesting
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuateFixtures

@Suite("Link creator")
struct LinkCreatorTests {
    @Test("builds an app link and a universal link from a binding and its input")
    func buildsLinks() throws {
        let testbed = try RouteTestbed()
        #expect(try testbed.links.appLink(to: ShopFeature.viewProduct, input: 42).absoluteString == "shop://product/42")
        #expect(
            try testbed.links.universalLink(to: ShopFeature.viewProduct, input: 42).absoluteString
                == "https://shop.example.com/product/42"
        )
        #expect(
            try testbed.links.appLink(to: ShopFeature.viewProduct, input: 1, scheme: "ShopDev").absoluteString
                == "shopdev://product/1"
        )
        #expect(
            try testbed.links.universalLink(to: ShopFeature.viewProduct, input: 1, host: "www.example.com")
                .absoluteString == "https://www.example.com/product/1"
        )
    }

    @Test(
        "a string survives link → open → input unchanged",
        arguments: [
            "plain", "with space", "slash/inside", "ünïcödé", "percent%20literal", "question?mark", "hash#tag",
            "plus+sign", "amp&er=sand", "dot.", "..",
        ]
    )
    func stringRoundTrip(value: String) async throws {
        let testbed = try RouteTestbed()
        let app = try testbed.links.appLink(to: ShopFeature.viewUser, input: value)
        let web = try testbed.links.universalLink(to: ShopFeature.viewUser, input: value)
        #expect(await testbed.router.open(url: app).isSuccess)
        #expect(await testbed.router.open(url: web).isSuccess)
        #expect(testbed.completed.map(\.actionName) == ["View User", "View User"])
        #expect(testbed.completed.map(\.inputDescription) == [value, value])
    }

    @Test("Int, UUID, partial-segment, query and no-input links round trip")
    func otherInputsRoundTrip() async throws {
        let testbed = try RouteTestbed()
        let id = UUID()
        let query = SearchQuery(text: "red shoes & socks", page: 3)
        let urls = [
            try testbed.links.appLink(to: ShopFeature.viewProduct, input: -7),
            try testbed.links.appLink(to: ShopFeature.openTicket, input: id),
            try testbed.links.appLink(to: ShopFeature.viewItem, input: "X 42"),
            try testbed.links.universalLink(to: ShopFeature.search, input: query),
            try testbed.links.appLink(to: ShopFeature.newProduct, input: .noInput),
            try testbed.links.appLink(to: ShopFeature.browseFiles, input: .noInput),
        ]
        #expect(urls[2].absoluteString == "shop://items/item-X%2042")
        #expect(urls[3].absoluteString == "https://shop.example.com/search?page=3&q=red%20shoes%20%26%20socks")
        for url in urls { #expect(await testbed.router.open(url: url).isSuccess, "\(url)") }
        #expect(
            testbed.completed.map(\.actionName)
                == ["View Product", "Open Ticket", "View Item", "Search", "New Product", "Browse Files"]
        )
        #expect(
            testbed.completed.map(\.inputDescription)
                == ["-7", id.uuidString, "X 42", query.loggingDescription, "none", "none"]
        )
        let decoded = try SearchQuery(routeParameters: try #require(testbed.router.resolve(urls[3])).parameters)
        #expect(decoded == query)
    }

    @Test("a link that another route would take is an error, not a wrong link")
    func wouldRouteElsewhere() throws {
        let testbed = try RouteTestbed()
        let error = try #require(throws: LinkCreationError.self) {
            try testbed.links.appLink(to: ShopFeature.viewUser, input: "me")
        }
        guard case .wouldNotRouteBack(_, let reason) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(reason.contains("user/me/view"))
    }

    @Test("a link whose parameter would vanish is an error")
    func emptyParameter() throws {
        let testbed = try RouteTestbed()
        #expect {
            try testbed.links.appLink(to: ShopFeature.viewUser, input: "")
        } throws: { error in
            guard case .wouldNotRouteBack = error as? LinkCreationError else { return false }
            return true
        }
    }

    @Test("an action without a route, or a route that cannot be filled in, cannot be linked")
    func unlinkable() throws {
        let testbed = try RouteTestbed()
        #expect(throws: LinkCreationError.noRoute(action: "Say Hello", feature: "Greeting")) {
            try testbed.links.appLink(to: GreetingFeature.sayHello, input: "x")
        }
        #expect {
            try testbed.links.appLink(to: ShopFeature.help, input: .noInput)
        } throws: { error in
            guard case .parameterMismatch(let pattern, _) = error as? LinkCreationError else { return false }
            return pattern == "help/*"
        }
    }

    @Test("a link outside a route's scopes, or to an unconfigured scheme or host, is an error")
    func scopes() throws {
        let testbed = try RouteTestbed()
        #expect(try testbed.links.appLink(to: ShopFeature.appOnly, input: .noInput).absoluteString == "shop://app-only")
        #expect(throws: LinkCreationError.noScope(action: "App Only")) {
            try testbed.links.universalLink(to: ShopFeature.appOnly, input: .noInput)
        }
        #expect(throws: LinkCreationError.noScope(action: "App Only")) {
            try testbed.links.appLink(to: ShopFeature.appOnly, input: .noInput, scheme: "shopdev")
        }
        #expect(throws: LinkCreationError.noScope(action: "Web Only")) {
            try testbed.links.appLink(to: ShopFeature.webOnly, input: .noInput)
        }
        #expect(throws: LinkCreationError.unconfiguredScope("other")) {
            try testbed.links.appLink(to: ShopFeature.viewProduct, input: 1, scheme: "other")
        }
        #expect(throws: LinkCreationError.unconfiguredScope("evil.example.com")) {
            try testbed.links.universalLink(to: ShopFeature.viewProduct, input: 1, host: "evil.example.com")
        }
    }

    @Test("links to a conditional feature's actions are built whether or not it is available")
    func conditionalLink() throws {
        let testbed = try RouteTestbed()
        #expect(try testbed.links.appLink(to: BetaRoutesFeature.beta, input: 9).absoluteString == "shop://beta/9")
    }
}

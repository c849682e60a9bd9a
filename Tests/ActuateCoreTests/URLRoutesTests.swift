import ActuateTesting
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuateFixtures

@Suite("URL routes")
struct URLRoutesTests {
    @Test("an app link performs the mapped action with its decoded input and source openURL")
    func appLinkPerforms() async throws {
        let testbed = try RouteTestbed()
        let result = try await testbed.open("shop://product/42")
        #expect(result.isSuccess)
        let request = try #require(testbed.completed.first)
        #expect(request.actionName == "View Product")
        #expect(request.inputDescription == "42")
        #expect(request.source == .openURL)
        #expect(request.sessionName == "routes")
    }

    @Test("a universal link performs the same route; scheme and host compare without case")
    func universalLinkPerforms() async throws {
        let testbed = try RouteTestbed()
        #expect(try await testbed.open("https://SHOP.example.com/product/7").isSuccess)
        #expect(try await testbed.open("SHOPDEV://product/8").isSuccess)
        #expect(testbed.completed.map(\.inputDescription) == ["7", "8"])
    }

    @Test("a URL whose path matches no route gives noMatch and performs nothing")
    func noMatch() async throws {
        let testbed = try RouteTestbed()
        for url in ["shop://nothing/here", "shop://product", "shop://product/1/extra", "https://shop.example.com/"] {
            let result = try await testbed.open(url)
            guard case .noMatch = result else {
                Issue.record("\(url) gave \(result)")
                continue
            }
        }
        #expect(testbed.completed.isEmpty)
    }

    @Test(
        "a scheme or host that is not configured gives unsupportedScope",
        arguments: [
            "other://product/1", "https://evil.example.com/product/1", "ftp://shop.example.com/product/1",
            "mailto:someone@example.com",
        ]
    )
    func unsupportedScope(url: String) async throws {
        let testbed = try RouteTestbed()
        let result = try await testbed.open(url)
        guard case .unsupportedScope = result else {
            Issue.record("\(url) gave \(result)")
            return
        }
        #expect(testbed.completed.isEmpty)
    }

    @Test("a route scoped to one scheme or host does not answer the others")
    func scopedRoutes() async throws {
        let testbed = try RouteTestbed()
        #expect(try await testbed.open("shop://app-only").isSuccess)
        #expect(try await testbed.open("https://shop.example.com/web-only").isSuccess)
        for url in [
            "shopdev://app-only", "https://shop.example.com/app-only", "https://www.example.com/web-only",
            "shop://web-only",
        ] {
            let result = try await testbed.open(url)
            guard case .noMatch = result else {
                Issue.record("\(url) gave \(result)")
                continue
            }
        }
        #expect(testbed.completed.map(\.actionName) == ["App Only", "Web Only"])
    }

    @Test("an Int parameter given letters gives badParameter naming it, and the action does not run")
    func badIntParameter() async throws {
        let testbed = try RouteTestbed()
        let result = try await testbed.open("shop://product/abc")
        guard case .badParameter(let name, let reason) = result else {
            Issue.record("expected badParameter, got \(result)")
            return
        }
        #expect(name == "id")
        #expect(reason.contains("abc"))
        #expect(testbed.completed.isEmpty)
    }

    @Test("a UUID parameter decodes, and a malformed one is a bad parameter")
    func uuidParameter() async throws {
        let testbed = try RouteTestbed()
        let id = UUID()
        #expect(try await testbed.open("shop://ticket/\(id.uuidString)").isSuccess)
        #expect(testbed.completed.map(\.inputDescription) == [id.uuidString])
        guard case .badParameter(name: "id", _) = try await testbed.open("shop://ticket/not-a-uuid") else {
            Issue.record("a malformed UUID was accepted")
            return
        }
    }

    @Test("parameter values are percent-decoded, each segment on its own")
    func percentDecoding() async throws {
        let testbed = try RouteTestbed()
        #expect(try await testbed.open("shop://user/J%C3%BCrgen%20M/view").isSuccess)
        #expect(try await testbed.open("shop://user/a%2Fb/view").isSuccess)
        #expect(testbed.completed.map(\.inputDescription) == ["Jürgen M", "a/b"])
    }

    @Test("a parameter inside a segment captures the text between its prefix and suffix")
    func partialSegmentParameter() async throws {
        let testbed = try RouteTestbed()
        #expect(try await testbed.open("shop://items/item-X42").isSuccess)
        #expect(testbed.completed.map(\.inputDescription) == ["X42"])
        guard case .noMatch = try await testbed.open("shop://items/item-") else {
            Issue.record("an empty partial parameter matched")
            return
        }
        guard case .noMatch = try await testbed.open("shop://items/thing-X42") else {
            Issue.record("a wrong prefix matched")
            return
        }
    }

    @Test("query items reach the input decoder")
    func queryItems() async throws {
        let testbed = try RouteTestbed()
        #expect(try await testbed.open("shop://search?q=red%20shoes&page=2").isSuccess)
        #expect(testbed.completed.map(\.inputDescription) == ["q=red shoes page=2"])
        guard case .badParameter(name: "q", _) = try await testbed.open("shop://search?page=2") else {
            Issue.record("a missing query item was not reported")
            return
        }
        guard case .badParameter(name: "page", _) = try await testbed.open("shop://search?q=x&page=two") else {
            Issue.record("a bad query item was not reported")
            return
        }
    }

    @Test(
        "** matches zero, one and many segments, at the end or in the middle",
        arguments: [
            ("shop://files", "Browse Files"),
            ("shop://files/a", "Browse Files"),
            ("shop://files/a/b/c/d", "Browse Files"),
            ("shop://docs/edit", "Edit Doc"),
            ("shop://docs/a/edit", "Edit Doc"),
            ("shop://docs/a/b/c/edit", "Edit Doc"),
        ]
    )
    func doubleStar(url: String, action: String) async throws {
        let testbed = try RouteTestbed()
        #expect(testbed.resolvedAction(url) == action)
        #expect(try await testbed.open(url).isSuccess)
        #expect(testbed.completed.map(\.actionName) == [action])
    }

    @Test("** in the middle still needs the segments after it; * needs exactly one segment")
    func wildcardLimits() throws {
        let testbed = try RouteTestbed()
        #expect(testbed.resolvedAction("shop://docs/a/b") == nil)
        #expect(testbed.resolvedAction("shop://help/topic") == "Help Topic")
        #expect(testbed.resolvedAction("shop://help") == nil)
        #expect(testbed.resolvedAction("shop://help/a/b") == nil)
    }

    @Test(
        "the most specific pattern wins: literal, partial parameter, parameter, *, then **",
        arguments: [
            ("shop://a/x-literal", "Ambiguous Literal"),
            ("shop://a/x-other", "Ambiguous Partial"),
            ("shop://a/anything", "Ambiguous Parameter"),
            ("shop://a/one/two", "Ambiguous Double Star"),
            ("shop://a", "Ambiguous Double Star"),
        ]
    )
    func specificity(url: String, action: String) throws {
        let testbed = try RouteTestbed()
        #expect(testbed.resolvedAction(url) == action)
    }

    @Test("a literal beats a parameter whatever the declaration order, and equal patterns go to the first")
    func literalBeatsParameterAndTiesGoFirst() async throws {
        let testbed = try RouteTestbed()
        #expect(testbed.resolvedAction("shop://product/new") == "New Product")
        #expect(testbed.resolvedAction("shop://user/me/view") == "View Me")
        #expect(testbed.resolvedAction("shop://user/ada/view") == "View User")
        #expect(testbed.resolvedAction("shop://tie/1") == "Tie First")
        #expect(try await testbed.open("shop://product/new").isSuccess)
        #expect(testbed.completed.map(\.actionName) == ["New Product"])
    }

    @Test("an action that completes later, from another queue, is awaited to its outcome")
    func asyncCallbackAction() async throws {
        let testbed = try RouteTestbed()
        #expect(try await testbed.open("shop://slow/5").isSuccess)
        #expect(testbed.completed.map(\.actionName) == ["Slow Load"])
        #expect(testbed.session.dispatcher.pendingAsyncCompletions == 0)
    }

    @Test("an AsyncAction is awaited; its thrown error is a performed failure")
    func asyncAction() async throws {
        let testbed = try RouteTestbed()
        #expect(try await testbed.open("shop://fetch/4").isSuccess)
        let failed = try await testbed.open("shop://fetch/3")
        guard case .performed(.failure(let error)) = failed else {
            Issue.record("expected a performed failure, got \(failed)")
            return
        }
        #expect(error is FetchFailed)
        #expect(testbed.completed.map(\.inputDescription) == ["4", "3"])
    }

    @Test("cancelling the task that opens a URL cancels the running action and gives cancelled")
    func cancellationWhileRunning() async throws {
        let testbed = try RouteTestbed()
        let probe = RouteProbe()
        testbed.router.setPresenter(for: AsyncRoutesFeature.wait) { probe }
        let url = try #require(URL(string: "shop://wait"))
        let task = Task { await testbed.router.open(url: url) }
        await probe.waitUntilStarted()
        task.cancel()
        let result = await task.value
        guard case .cancelled = result else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
        #expect(testbed.recorder.events.last?.description.hasSuffix("cancelled") == true)
    }

    @Test("a task cancelled before opening gives cancelled and performs nothing")
    func cancellationBeforeStart() async throws {
        let testbed = try RouteTestbed()
        let url = try #require(URL(string: "shop://product/1"))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await testbed.router.open(url: url)
        }
        guard case .cancelled = await task.value else {
            Issue.record("a cancelled task still opened the URL")
            return
        }
        #expect(testbed.completed.isEmpty)
    }

    @Test("an action that drives a presenter needs one from the router")
    func presenterUnavailable() async throws {
        let testbed = try RouteTestbed()
        guard case .presenterUnavailable(let action) = try await testbed.open("shop://wait") else {
            Issue.record("the action ran without a presenter")
            return
        }
        #expect(action == "Wait")
        testbed.router.setPresenter(for: AsyncRoutesFeature.wait) { nil }
        guard case .presenterUnavailable = try await testbed.open("shop://wait") else {
            Issue.record("a nil presenter was accepted")
            return
        }
        #expect(testbed.completed.isEmpty)
    }

    @Test("a route to a conditional feature performs only while the feature is available")
    func conditionalRoute() async throws {
        let availability = FeatureAvailability()
        try availability.register(ShopRoutesGroup.self)
        let testbed = try RouteTestbed(availability: availability)
        guard case .unavailable(let path) = try await testbed.open("shop://beta/1") else {
            Issue.record("an unavailable feature's route performed")
            return
        }
        #expect(path.components.last == "BetaRoutesFeature")
        availability.setUserToggle(BetaRoutesFeature.self, enabled: true)
        #expect(try await testbed.open("shop://beta/2").isSuccess)
        #expect(testbed.completed.map(\.inputDescription) == ["2"])

        let withoutAvailability = try RouteTestbed()
        guard case .unavailable = try await withoutAvailability.open("shop://beta/3") else {
            Issue.record("a router without availability performed a conditional route")
            return
        }
    }

    @Test("malformed patterns and unconfigured scopes are all reported, and none of the feature's routes register")
    func malformedMappings() async throws {
        let testbed = try RouteTestbed()
        let error = try #require(throws: URLRouteMappingError.self) {
            try testbed.router.register(BrokenRoutesFeature.self)
        }
        #expect(error.problems.map(\.pattern) == ["bad/$(id", "x/**/y/**", "scoped/$(id)"])
        #expect(error.problems[2].reason.contains("nope"))
        guard case .noMatch = try await testbed.open("shop://ok/1") else {
            Issue.record("a route of a rejected feature was registered")
            return
        }
    }

    @Test("registering a feature twice does not duplicate its routes")
    func idempotentRegistration() throws {
        let testbed = try RouteTestbed()
        let before = testbed.router.routeDescriptions
        try testbed.router.register(ShopFeature.self)
        try testbed.router.register(ShopRoutesGroup.self)
        #expect(testbed.router.routeDescriptions == before)
        #expect(before.contains("product/$(id) → Shop › View Product"))
    }

    @Test(
        "malformed patterns are rejected with a reason",
        arguments: [
            ("", RoutePatternError.empty),
            ("/", .empty),
            ("a//b", .emptySegment(index: 1)),
            ("a/b*", .wildcardInsideSegment(segment: "b*")),
            ("a/$id", .malformedParameter(segment: "$id")),
            ("a/$(", .malformedParameter(segment: "$(")),
            ("a/$()", .invalidParameterName(segment: "$()")),
            ("a/$(a-b)", .invalidParameterName(segment: "$(a-b)")),
            ("a/$(x)-$(y)", .multipleParametersInSegment(segment: "$(x)-$(y)")),
            ("$(x)/$(x)", .duplicateParameter(name: "x")),
            ("**/a/**", .multipleDoubleStars),
        ]
    )
    func patternErrors(pattern: String, expected: RoutePatternError) {
        #expect(throws: expected) { try RoutePattern(pattern) }
    }

    @Test("leading and trailing slashes in a pattern are ignored")
    func patternSlashes() throws {
        let pattern = try RoutePattern("/product/$(id)/")
        #expect(pattern.match(["product", "9"]) == ["id": "9"])
        #expect(pattern.parameterNames == ["id"])
    }
}

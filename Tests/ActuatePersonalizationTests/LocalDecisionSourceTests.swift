import Foundation
import Testing

@testable import ActuatePersonalization

@Suite("LocalDecisionSource")
struct LocalDecisionSourceTests {
    private static func action(_ id: Int) -> ContentAction {
        ContentAction(id: id, name: "Action \(id)", contentType: "text/html", content: "<p>\(id)</p>")
    }

    private static func source(
        _ targeting: RuleTargeting,
        controlGroupPercent: Double = 0
    ) throws -> LocalDecisionSource {
        try LocalDecisionSource(
            rules: RulesFile(
                actions: [action(1)],
                conditions: [
                    RuleCondition(
                        id: 10,
                        name: "C",
                        actionIDs: [1],
                        controlGroupPercent: controlGroupPercent,
                        targeting: targeting
                    )
                ]
            )
        )
    }

    private static func matches(
        _ source: LocalDecisionSource,
        _ profile: VisitorProfile,
        sessions: Int = 1,
        visitor: String = "v"
    ) -> Bool {
        !source.evaluate(DecisionRequest(visitorID: visitor, sessionCount: sessions, profile: profile)).actions.isEmpty
    }

    private static func profile(_ commands: [BehaviourCommand]) -> VisitorProfile {
        var profile = VisitorProfile()
        for command in commands { profile.apply(command) }
        return profile
    }

    @Test("no targeting matches everyone")
    func everyone() throws {
        #expect(Self.matches(try Self.source(.everyone), VisitorProfile()))
    }

    @Test("documents: exact names and * prefixes match the current document only")
    func documents() throws {
        let source = try Self.source(RuleTargeting(documents: ["home", "product/*"]))
        #expect(!Self.matches(source, VisitorProfile()))
        #expect(Self.matches(source, Self.profile([.navigate(documentName: "home")])))
        #expect(Self.matches(source, Self.profile([.navigate(documentName: "product/sku-1")])))
        #expect(
            !Self.matches(source, Self.profile([.navigate(documentName: "home"), .navigate(documentName: "cart")]))
        )
        #expect(!Self.matches(source, Self.profile([.navigate(documentName: "homepage")])))
    }

    @Test("products seen: any of a list, a minimum count, and the list the event fills")
    func productsSeen() throws {
        let anyOf = try Self.source(RuleTargeting(productsSeen: SeenItemsRule(list: .viewed, anyOf: ["a", "b"])))
        #expect(!Self.matches(anyOf, Self.profile([.product(.viewed, productID: "c")])))
        #expect(Self.matches(anyOf, Self.profile([.product(.viewed, productID: "b")])))
        #expect(!Self.matches(anyOf, Self.profile([.product(.liked, productID: "b")])))
        let twoOf = try Self.source(
            RuleTargeting(productsSeen: SeenItemsRule(list: .viewed, anyOf: ["a", "b", "c"], minCount: 2))
        )
        #expect(
            !Self.matches(twoOf, Self.profile([.product(.viewed, productID: "a"), .product(.viewed, productID: "x")]))
        )
        #expect(
            Self.matches(twoOf, Self.profile([.product(.viewed, productID: "a"), .product(.viewed, productID: "c")]))
        )
        let cart = try Self.source(RuleTargeting(productsSeen: SeenItemsRule(list: .addedToCart, minCount: 1)))
        #expect(Self.matches(cart, Self.profile([.product(.addedToCart, productID: "a")])))
        #expect(
            !Self.matches(
                cart,
                Self.profile([.product(.addedToCart, productID: "a"), .product(.removedFromCart, productID: "a")])
            )
        )
        #expect(
            !Self.matches(
                cart,
                Self.profile([.product(.addedToCart, productID: "a"), .product(.purchased, productID: "a")])
            )
        )
    }

    @Test("articles seen")
    func articlesSeen() throws {
        let source = try Self.source(RuleTargeting(articlesSeen: SeenItemsRule(list: .liked, anyOf: ["a1"])))
        #expect(Self.matches(source, Self.profile([.article(.liked, articleID: "a1")])))
        #expect(
            !Self.matches(
                source,
                Self.profile([.article(.liked, articleID: "a1"), .article(.unliked, articleID: "a1")])
            )
        )
        let goals = try Self.source(RuleTargeting(articlesSeen: SeenItemsRule(list: .goal, minCount: 2)))
        #expect(
            Self.matches(goals, Self.profile([.article(.goal, articleID: "a1"), .article(.goal, articleID: "a2")]))
        )
    }

    @Test("user data: exact values, and * for any value")
    func userData() throws {
        let source = try Self.source(RuleTargeting(userData: ["tier": "gold", "newsletter": "*"]))
        #expect(!Self.matches(source, Self.profile([.userData(field: "tier", value: "gold")])))
        #expect(
            Self.matches(
                source,
                Self.profile([.userData(field: "tier", value: "gold"), .userData(field: "newsletter", value: "")])
            )
        )
        #expect(
            !Self.matches(
                source,
                Self.profile([.userData(field: "tier", value: "silver"), .userData(field: "newsletter", value: "yes")])
            )
        )
    }

    @Test("session count range")
    func sessionCount() throws {
        let source = try Self.source(RuleTargeting(sessionCount: SessionCountRule(min: 2, max: 3)))
        #expect(!Self.matches(source, VisitorProfile(), sessions: 1))
        #expect(Self.matches(source, VisitorProfile(), sessions: 2))
        #expect(Self.matches(source, VisitorProfile(), sessions: 3))
        #expect(!Self.matches(source, VisitorProfile(), sessions: 4))
    }

    @Test("all criteria of a condition must hold")
    func allCriteria() throws {
        let source = try Self.source(RuleTargeting(documents: ["home"], userData: ["tier": "gold"]))
        #expect(!Self.matches(source, Self.profile([.navigate(documentName: "home")])))
        #expect(
            Self.matches(
                source,
                Self.profile([.navigate(documentName: "home"), .userData(field: "tier", value: "gold")])
            )
        )
    }

    @Test("the control group is stable per visitor and close to its percentage")
    func controlGroup() throws {
        let source = try Self.source(.everyone, controlGroupPercent: 30)
        var held = 0
        for index in 0..<2_000 {
            let visitor = "visitor-\(index)"
            let request = DecisionRequest(visitorID: visitor, sessionCount: 1)
            let first = source.evaluate(request)
            #expect(source.evaluate(request) == first, "the same visitor stays in the same group")
            #expect(first.conditions.count == 1)
            if first.conditions[0].isControlGroup {
                held += 1
                #expect(first.actions.isEmpty, "the control group sees nothing")
            } else {
                #expect(first.actions.map(\.id) == [1])
            }
        }
        #expect((500...700).contains(held), "about 30% of 2,000 visitors: \(held)")
        #expect(!Self.matches(try Self.source(.everyone, controlGroupPercent: 100), VisitorProfile()))
    }

    @Test("actions of matching conditions come in rules order, each once")
    func ordering() throws {
        let rules = RulesFile(
            actions: [Self.action(1), Self.action(2), Self.action(3)],
            conditions: [
                RuleCondition(id: 1, actionIDs: [3, 1]),
                RuleCondition(id: 2, actionIDs: [1], targeting: RuleTargeting(documents: ["nowhere"])),
                RuleCondition(id: 3, actionIDs: [2, 3]),
            ]
        )
        let result = try LocalDecisionSource(rules: rules).evaluate(DecisionRequest(visitorID: "v", sessionCount: 1))
        #expect(result.actions.map(\.id) == [3, 1, 2])
        #expect(result.conditions.map(\.id) == [1, 3])
    }

    @Test("the shipped example rules decide as their names say")
    func exampleRules() throws {
        let source = try LocalDecisionSource(
            contentsOf: RepositoryFiles.url("Examples/Rules/personalization-rules.json")
        )
        let home = DecisionRequest(
            visitorID: "v",
            sessionCount: 1,
            profile: Self.profile([.navigate(documentName: "home")])
        )
        #expect(source.evaluate(home).actions.map(\.id) == [101])
        let shoes = Self.profile([.product(.viewed, productID: "sku-1"), .navigate(documentName: "product/sku-9")])
        let shoeResult = source.evaluate(DecisionRequest(visitorID: "v", sessionCount: 1, profile: shoes))
        #expect(shoeResult.conditions.map(\.id) == [2])
    }

    @Test("a rules file with mistakes cannot make a source")
    func badFile() throws {
        #expect(throws: RulesFileError.self) {
            try LocalDecisionSource(data: Data(#"{"conditions": [{"id": 1, "actions": [5]}]}"#.utf8), name: "bad.json")
        }
    }
}

import ActuateTestSupport
import Foundation
import Testing

@testable import ActuatePersonalization

/// A `LocalDecisionSource` keeps what it derived from the last profile it evaluated and reuses it for the parts
/// that did not change: these tests check that its answers are always those of a source that never evaluated
/// anything before.
@Suite("LocalDecisionSource reuse")
struct LocalDecisionSourceReuseTests {
    private static let products = ["p1", "p2", "p3", "p4"]
    private static let articles = ["a1", "a2", "a3"]
    private static let documents = ["home", "cart", "product/p1", "product/p2", "landing"]
    private static let fields = ["tier", "newsletter"]
    private static let values = ["gold", "silver", ""]

    /// Rules of every kind of criterion over a small vocabulary, so that many match and many do not.
    private static func rules(_ generator: inout SplitMix64) -> RulesFile {
        var conditions: [RuleCondition] = []
        let productLists: [ProductList] = [.viewed, .addedToCart, .liked, .purchased]
        let articleLists: [ArticleList] = [.viewed, .liked, .commented, .goal]
        for id in 0..<120 {
            var targeting = RuleTargeting()
            if generator.chance(4) {
                targeting.documents = [
                    documents[generator.below(documents.count)], generator.chance(2) ? "product/*" : "landing",
                ]
            }
            if generator.chance(3) {
                let anyOf =
                    generator.chance(2) ? [] : (0...generator.below(3)).map { _ in products.randomly(&generator) }
                targeting.productsSeen = SeenItemsRule(
                    list: productLists.randomly(&generator),
                    anyOf: anyOf,
                    minCount: 1 + generator.below(2)
                )
            }
            if generator.chance(4) {
                let anyOf = generator.chance(2) ? [] : [articles.randomly(&generator)]
                targeting.articlesSeen = SeenItemsRule(list: articleLists.randomly(&generator), anyOf: anyOf)
            }
            if generator.chance(4) {
                targeting.userData = [
                    fields.randomly(&generator): generator.chance(3) ? "*" : values.randomly(&generator)
                ]
            }
            if generator.chance(5) {
                targeting.sessionCount = SessionCountRule(
                    min: 1 + generator.below(2),
                    max: generator.chance(2) ? 3 : nil
                )
            }
            let actionIDs = (0...generator.below(2)).map { _ in generator.below(30) }
            conditions.append(
                RuleCondition(
                    id: id,
                    name: "C\(id)",
                    actionIDs: actionIDs,
                    controlGroupPercent: generator.chance(6) ? 50 : 0,
                    targeting: targeting
                )
            )
        }
        let actions = (0..<30).map {
            ContentAction(id: $0, name: "A\($0)", contentType: "text/html", content: "<p>\($0)</p>")
        }
        return RulesFile(actions: actions, conditions: conditions)
    }

    private static func command(_ generator: inout SplitMix64) -> BehaviourCommand {
        let productEvents: [ProductEvent] = [.viewed, .addedToCart, .removedFromCart, .liked, .unliked, .purchased]
        let articleEvents: [ArticleEvent] = [.viewed, .liked, .unliked, .commented, .goal]
        switch generator.below(4) {
        case 0: return .navigate(documentName: documents.randomly(&generator))
        case 1: return .product(productEvents.randomly(&generator), productID: products.randomly(&generator))
        case 2: return .article(articleEvents.randomly(&generator), articleID: articles.randomly(&generator))
        default: return .userData(field: fields.randomly(&generator), value: values.randomly(&generator))
        }
    }

    @Test(
        "a source that evaluated visitors before answers as a new source would, after every change of profile",
        arguments: [1, 3]
    )
    func reuseMatchesFreshEvaluation(visitorCount: Int) throws {
        var generator = SplitMix64(seed: 7)
        let rules = Self.rules(&generator)
        let shared = try LocalDecisionSource(rules: rules)
        var visitors = [VisitorProfile](repeating: VisitorProfile(), count: visitorCount)
        var sessionCounts = [Int](repeating: 1, count: visitorCount)
        var differentAnswers = Set<TrackerResult>()
        for step in 0..<600 {
            let visitor = generator.below(visitors.count)
            if generator.chance(10) {
                sessionCounts[visitor] += 1
            } else {
                visitors[visitor].apply(Self.command(&generator))
            }
            if step % 50 == 49 {
                // A list changed directly, not by a command.
                visitors[visitor].cartProducts.insert(Self.products.randomly(&generator))
            }
            let request = DecisionRequest(
                visitorID: "visitor-\(visitor)",
                sessionCount: sessionCounts[visitor],
                profile: visitors[visitor]
            )
            let expected = try LocalDecisionSource(rules: rules).evaluate(request)
            #expect(shared.evaluate(request) == expected)
            // Asked again without a change, the source gives the same answer.
            #expect(shared.evaluate(request) == expected)
            differentAnswers.insert(expected)
        }
        // The walk reaches many different answers, so the comparison covers changes of every kind.
        #expect(differentAnswers.count > 50)
    }

    @Test("sources evaluating from several tasks at once answer as new sources would")
    func concurrentEvaluation() async throws {
        var generator = SplitMix64(seed: 11)
        let rules = Self.rules(&generator)
        let shared = try LocalDecisionSource(rules: rules)
        var requests: [DecisionRequest] = []
        var profile = VisitorProfile()
        for index in 0..<200 {
            profile.apply(Self.command(&generator))
            requests.append(
                DecisionRequest(visitorID: "visitor-\(index % 7)", sessionCount: 1 + index % 3, profile: profile)
            )
        }
        let expected = try requests.map { try LocalDecisionSource(rules: rules).evaluate($0) }
        let answers = await withTaskGroup(of: (Int, TrackerResult).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask { (index, shared.evaluate(request)) }
            }
            var answers = [TrackerResult?](repeating: nil, count: requests.count)
            for await (index, answer) in group { answers[index] = answer }
            return answers
        }
        #expect(answers == expected)
    }

    @Test("a decoded profile is evaluated from its contents, not from what the source saw before")
    func decodedProfile() throws {
        let source = try LocalDecisionSource(
            rules: RulesFile(
                actions: [ContentAction(id: 1, contentType: "text/html", content: "<p>1</p>")],
                conditions: [
                    RuleCondition(
                        id: 1,
                        actionIDs: [1],
                        targeting: RuleTargeting(productsSeen: SeenItemsRule(list: .viewed, anyOf: ["p1"]))
                    )
                ]
            )
        )
        var viewer = VisitorProfile()
        viewer.apply(.product(.viewed, productID: "p1"))
        let saved = try JSONEncoder().encode(viewer)
        let stranger = VisitorProfile()
        #expect(source.evaluate(DecisionRequest(visitorID: "v", sessionCount: 1, profile: stranger)).actions.isEmpty)
        let decoded = try JSONDecoder().decode(VisitorProfile.self, from: saved)
        #expect(decoded == viewer)
        #expect(source.evaluate(DecisionRequest(visitorID: "v", sessionCount: 1, profile: decoded)).actions.count == 1)
    }

    @Test("what a profile saves, and its equality, leave out the numbers that track its changes")
    func revisionsAreNotPartOfTheValue() throws {
        var first = VisitorProfile()
        first.apply(.navigate(documentName: "home"))
        first.apply(.product(.viewed, productID: "p1"))
        var second = VisitorProfile()
        second.apply(.navigate(documentName: "home"))
        second.apply(.product(.liked, productID: "p1"))
        second.apply(.product(.unliked, productID: "p1"))
        second.apply(.product(.viewed, productID: "p1"))
        second.commandCount = first.commandCount
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(first)) as? [String: Any]
        #expect(
            Set(object?.keys.map { $0 } ?? []) == [
                "currentDocument", "visitedDocuments", "viewedProducts", "cartProducts", "likedProducts",
                "purchasedProducts", "viewedArticles", "likedArticles", "commentedArticles", "goalArticles",
                "userData", "commandCount",
            ]
        )
    }
}

extension SplitMix64 {
    /// A number in `0..<bound`.
    fileprivate mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// True one time in `odds`.
    fileprivate mutating func chance(_ odds: Int) -> Bool {
        below(odds) == 0
    }
}

extension Array {
    fileprivate func randomly(_ generator: inout SplitMix64) -> Element {
        self[generator.below(count)]
    }
}

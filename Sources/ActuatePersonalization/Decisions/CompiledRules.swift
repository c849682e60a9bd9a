/// Rules compiled for evaluation: every criterion is a check with a plain-number payload, documents and user
/// data are looked up once per evaluation instead of once per rule, and checks run cheapest first. So a rule
/// costs a few comparisons, and one hash lookup per product or article it names.
struct CompiledRules: Sendable {
    /// One criterion of a rule.
    enum Check: Sendable {
        case minimumSessions(Int)
        case maximumSessions(Int)
        /// The current document matched the rule's names or prefixes (decided once per evaluation).
        case document
        /// The user data field `field` is present and, unless `value` is negative, has the value `value`.
        case userData(field: Int, value: Int)
        /// At least `minimum` items in the list.
        case count(list: Int, minimum: Int)
        /// At least `minimum` of the items at `items` in ``CompiledRules/items`` are in the list.
        case anyOf(list: Int, items: Range<Int>, minimum: Int)
    }

    /// What a matching rule contributes.
    struct Outcome: Sendable {
        var condition: TrackerCondition
        var controlGroupPercent: Double
        var actions: [ContentAction]
    }

    private(set) var outcomes: [Outcome] = []
    private var ruleChecks: [Range<Int>] = []
    private var checks: [Check] = []
    private var items: [String] = []
    private var fields: [String] = []
    private var valueIDs: [String: Int] = [:]
    private var exactDocuments: [String: [Int]] = [:]
    private var prefixRules: [Int] = []
    private var prefixes: [[String]] = []

    init(_ file: RulesFile) {
        let actionsByID = Dictionary(file.actions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var fieldIDs: [String: Int] = [:]
        for (ruleIndex, condition) in file.conditions.enumerated() {
            let targeting = condition.targeting
            let start = checks.count
            if let min = targeting.sessionCount?.min { checks.append(.minimumSessions(min)) }
            if let max = targeting.sessionCount?.max { checks.append(.maximumSessions(max)) }
            if let documents = targeting.documents {
                checks.append(.document)
                for document in documents where !document.hasSuffix("*") {
                    exactDocuments[document, default: []].append(ruleIndex)
                }
                let rulePrefixes = documents.filter { $0.hasSuffix("*") }.map { String($0.dropLast()) }
                if !rulePrefixes.isEmpty {
                    prefixRules.append(ruleIndex)
                    prefixes.append(rulePrefixes)
                }
            }
            for (field, value) in (targeting.userData ?? [:]).sorted(by: { $0.key < $1.key }) {
                let fieldID = fieldIDs[field] ?? fields.count
                if fieldID == fields.count {
                    fields.append(field)
                    fieldIDs[field] = fieldID
                }
                var valueID = -1
                if value != "*" {
                    valueID = valueIDs[value] ?? valueIDs.count
                    valueIDs[value] = valueID
                }
                checks.append(.userData(field: fieldID, value: valueID))
            }
            if let rule = targeting.productsSeen {
                appendListCheck(list: ProfileList.index(of: rule.list), anyOf: rule.anyOf, minimum: rule.minCount)
            }
            if let rule = targeting.articlesSeen {
                appendListCheck(list: ProfileList.index(of: rule.list), anyOf: rule.anyOf, minimum: rule.minCount)
            }
            ruleChecks.append(start..<checks.count)
            outcomes.append(
                Outcome(
                    condition: TrackerCondition(id: condition.id, name: condition.name),
                    controlGroupPercent: condition.controlGroupPercent,
                    actions: condition.actionIDs.compactMap { actionsByID[$0] }
                )
            )
        }
    }

    private mutating func appendListCheck(list: Int, anyOf: [String], minimum: Int) {
        if anyOf.isEmpty {
            checks.append(.count(list: list, minimum: minimum))
        } else {
            let start = items.count
            items += anyOf
            checks.append(.anyOf(list: list, items: start..<items.count, minimum: minimum))
        }
    }

    /// The indices of the rules whose every check holds for `profile`, in rules order.
    func matchingRules(profile: VisitorProfile, sessionCount: Int) -> [Int] {
        let documentMatches = documentMatches(profile.currentDocument)
        let fieldValues = fields.map { field -> Int in
            guard let value = profile.userData[field] else { return -2 }
            return valueIDs[value] ?? -3
        }
        var matching: [Int] = []
        checks.withUnsafeBufferPointer { checks in
            items.withUnsafeBufferPointer { items in
                for rule in ruleChecks.indices {
                    var holds = true
                    for index in ruleChecks[rule] {
                        switch checks[index] {
                        case .minimumSessions(let minimum):
                            holds = sessionCount >= minimum
                        case .maximumSessions(let maximum):
                            holds = sessionCount <= maximum
                        case .document:
                            holds = documentMatches[rule]
                        case .userData(let field, let value):
                            let actual = fieldValues[field]
                            holds = actual != -2 && (value < 0 || actual == value)
                        case .count(let list, let minimum):
                            holds = ProfileList.count(list, in: profile) >= minimum
                        case .anyOf(let list, let range, let minimum):
                            var found = 0
                            for item in range where ProfileList.contains(list, items[item], in: profile) {
                                found += 1
                                if found >= minimum { break }
                            }
                            holds = found >= minimum
                        }
                        if !holds { break }
                    }
                    if holds { matching.append(rule) }
                }
            }
        }
        return matching
    }

    /// For each rule, whether `document` satisfies its document criterion (false for rules without one, which
    /// never ask).
    private func documentMatches(_ document: String?) -> [Bool] {
        var matches = [Bool](repeating: false, count: ruleChecks.count)
        guard let document else { return matches }
        for rule in exactDocuments[document] ?? [] { matches[rule] = true }
        for (position, rule) in prefixRules.enumerated() where !matches[rule] {
            matches[rule] = prefixes[position].contains(where: document.hasPrefix)
        }
        return matches
    }
}

/// The visitor's lists, by number: products viewed, in the cart, liked, bought; articles viewed, liked,
/// commented on, reached the goal of.
enum ProfileList {
    static func index(of list: ProductList) -> Int {
        switch list {
        case .viewed: 0
        case .addedToCart: 1
        case .liked: 2
        case .purchased: 3
        }
    }

    static func index(of list: ArticleList) -> Int {
        switch list {
        case .viewed: 4
        case .liked: 5
        case .commented: 6
        case .goal: 7
        }
    }

    @inline(__always)
    static func contains(_ list: Int, _ item: String, in profile: VisitorProfile) -> Bool {
        switch list {
        case 0: profile.viewedProducts.contains(item)
        case 1: profile.cartProducts.contains(item)
        case 2: profile.likedProducts.contains(item)
        case 3: profile.purchasedProducts.contains(item)
        case 4: profile.viewedArticles.contains(item)
        case 5: profile.likedArticles.contains(item)
        case 6: profile.commentedArticles.contains(item)
        default: profile.goalArticles.contains(item)
        }
    }

    @inline(__always)
    static func count(_ list: Int, in profile: VisitorProfile) -> Int {
        switch list {
        case 0: profile.viewedProducts.count
        case 1: profile.cartProducts.count
        case 2: profile.likedProducts.count
        case 3: profile.purchasedProducts.count
        case 4: profile.viewedArticles.count
        case 5: profile.likedArticles.count
        case 6: profile.commentedArticles.count
        default: profile.goalArticles.count
        }
    }
}

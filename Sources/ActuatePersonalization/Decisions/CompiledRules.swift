/// Rules compiled for evaluation, once per rules load.
///
/// Documents, products, articles, user data fields and values are interned: each name the rules use is looked up
/// in the visitor's profile once per evaluation, however many rules name it. The criteria are grouped by what
/// they read (the current document, the session count, the user data, each of the eight lists), and each group
/// gives the set of rules it rules out, as bits. A rule matches when no group rules it out, so combining them
/// costs a few word operations per 64 rules. A ``RuleEvaluation`` keeps each group's answer until what the group
/// reads changes (``ProfileRevisions``): a visitor whose profile did not change since the last evaluation costs no
/// lookup at all; one behaviour command since then costs one lookup; otherwise only the changed groups are looked
/// up again.
struct CompiledRules: Sendable {
    /// What a matching rule contributes.
    struct Outcome: Sendable {
        var condition: TrackerCondition
        var controlGroupPercent: Double
        /// Indices in ``CompiledRules/actions``, in the rule's order.
        var actions: [Int]
    }

    /// A rule's session count range.
    private struct SessionCheck: Sendable {
        var rule: Int
        var minimum: Int
        var maximum: Int
    }

    /// A rule's required value of a user data field: `value` is an index in the interned values, or -1 for any.
    private struct UserDataCheck: Sendable {
        var rule: Int
        var field: Int
        var value: Int
    }

    /// A rule that needs at least `minimum` items of a list, counting only `items` (interned, repeats kept) when
    /// it is not empty.
    private struct ListCheck: Sendable {
        var rule: Int
        var items: Range<Int>
        var minimum: Int
    }

    /// The criteria that read one of the visitor's lists.
    private struct ListChecks: Sendable {
        /// The items the rules name from this list, each once.
        var items: [String] = []
        var itemIDs: [String: Int] = [:]
        /// For each check, its items as indices in `items`, one after the other.
        var references: [Int] = []
        var checks: [ListCheck] = []

        mutating func append(rule: Int, anyOf: [String], minimum: Int) {
            let start = references.count
            for item in anyOf {
                let id = itemIDs[item] ?? items.count
                if id == items.count {
                    items.append(item)
                    itemIDs[item] = id
                }
                references.append(id)
            }
            checks.append(ListCheck(rule: rule, items: start..<references.count, minimum: minimum))
        }
    }

    /// The number of rules.
    let ruleCount: Int
    /// One outcome per rule, in rules order.
    private(set) var outcomes: [Outcome] = []
    /// The actions the rules show, each id once.
    private(set) var actions: [ContentAction] = []
    private var documentRules: IndexBits
    private var exactDocuments: [String: [Int]] = [:]
    private var prefixRules: [(rule: Int, prefixes: [String])] = []
    private var sessionChecks: [SessionCheck] = []
    private var fields: [String] = []
    private var valueIDs: [String: Int] = [:]
    private var userDataChecks: [UserDataCheck] = []
    private var lists = [ListChecks](repeating: ListChecks(), count: ProfileList.count)

    init(_ file: RulesFile) {
        ruleCount = file.conditions.count
        documentRules = IndexBits(count: ruleCount)
        var actionIndices: [Int: Int] = [:]
        for action in file.actions where actionIndices[action.id] == nil {
            actionIndices[action.id] = actions.count
            actions.append(action)
        }
        var fieldIDs: [String: Int] = [:]
        for (rule, condition) in file.conditions.enumerated() {
            let targeting = condition.targeting
            if let range = targeting.sessionCount {
                sessionChecks.append(
                    SessionCheck(rule: rule, minimum: range.min ?? .min, maximum: range.max ?? .max)
                )
            }
            if let documents = targeting.documents {
                documentRules.insert(rule)
                for document in documents where !document.hasSuffix("*") {
                    exactDocuments[document, default: []].append(rule)
                }
                let rulePrefixes = documents.filter { $0.hasSuffix("*") }.map { String($0.dropLast()) }
                if !rulePrefixes.isEmpty { prefixRules.append((rule, rulePrefixes)) }
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
                userDataChecks.append(UserDataCheck(rule: rule, field: fieldID, value: valueID))
            }
            if let seen = targeting.productsSeen {
                lists[ProfileList.index(of: seen.list)].append(rule: rule, anyOf: seen.anyOf, minimum: seen.minCount)
            }
            if let seen = targeting.articlesSeen {
                lists[ProfileList.index(of: seen.list)].append(rule: rule, anyOf: seen.anyOf, minimum: seen.minCount)
            }
            outcomes.append(
                Outcome(
                    condition: TrackerCondition(id: condition.id, name: condition.name),
                    controlGroupPercent: condition.controlGroupPercent,
                    actions: condition.actionIDs.compactMap { actionIndices[$0] }
                )
            )
        }
    }

    /// An evaluation with nothing known yet, sized for these rules.
    func makeEvaluation() -> RuleEvaluation {
        RuleEvaluation(
            ruleCount: ruleCount,
            actionCount: actions.count,
            fieldCount: fields.count,
            listItemCounts: lists.map(\.items.count)
        )
    }

    /// Decides for `request`, reusing what `evaluation` derived from the parts of the profile that did not change
    /// since it was last used.
    func evaluate(_ request: DecisionRequest, in evaluation: inout RuleEvaluation) -> TrackerResult {
        let profile = request.profile
        if !evaluation.knowsDocument || evaluation.document != profile.currentDocument {
            ruleOutByDocument(profile.currentDocument, into: &evaluation.documentRuledOut)
            evaluation.document = profile.currentDocument
            evaluation.knowsDocument = true
        }
        if !sessionChecks.isEmpty, evaluation.sessionCount != request.sessionCount {
            ruleOutBySessions(request.sessionCount, into: &evaluation.sessionRuledOut)
            evaluation.sessionCount = request.sessionCount
        }
        if !userDataChecks.isEmpty, evaluation.userDataRevision != profile.revisions.userData {
            ruleOutByUserData(profile.userData, into: &evaluation)
            evaluation.userDataRevision = profile.revisions.userData
        }
        for list in lists.indices where !lists[list].checks.isEmpty {
            let revision = profile.revisions.list(list)
            guard evaluation.listRevisions[list] != revision else { continue }
            if let change = profile.revisions.lastChange, change.list == list, change.after == revision,
                change.before == evaluation.listRevisions[list]
            {
                // One item added or taken out since the last evaluation: one lookup instead of one per item.
                if let item = lists[list].itemIDs[change.item] { evaluation.listed[list][item] = change.added }
            } else {
                lookUp(list, in: profile, into: &evaluation.listed[list])
            }
            ruleOutByList(list, count: ProfileList.count(list, in: profile), into: &evaluation)
            evaluation.listRevisions[list] = revision
        }
        evaluation.matching.fill()
        evaluation.matching.subtract(evaluation.documentRuledOut)
        evaluation.matching.subtract(evaluation.sessionRuledOut)
        evaluation.matching.subtract(evaluation.userDataRuledOut)
        for list in lists.indices where !lists[list].checks.isEmpty {
            evaluation.matching.subtract(evaluation.listRuledOut[list])
        }
        if let result = evaluation.result, evaluation.resultVisitorID == request.visitorID,
            evaluation.resultMatching == evaluation.matching
        {
            return result
        }
        let result = result(for: evaluation.matching, visitorID: request.visitorID, included: &evaluation.included)
        evaluation.resultMatching.assign(evaluation.matching)
        evaluation.resultVisitorID = request.visitorID
        evaluation.result = result
        return result
    }

    /// The conditions of the rules in `matching`, in rules order, and the actions of those the visitor is not in
    /// the control group of, each once.
    private func result(for matching: IndexBits, visitorID: String, included: inout IndexBits) -> TrackerResult {
        var result = TrackerResult()
        for rule in matching {
            let outcome = outcomes[rule]
            var condition = outcome.condition
            if ControlGroup.contains(
                visitorID: visitorID,
                conditionID: condition.id,
                percent: outcome.controlGroupPercent
            ) {
                condition.isControlGroup = true
                result.conditions.append(condition)
                continue
            }
            result.conditions.append(condition)
            for action in outcome.actions where !included.contains(action) {
                included.insert(action)
                result.actions.append(actions[action])
            }
        }
        included.removeAll()
        return result
    }

    /// The rules whose document criterion `document` does not meet (all of them when there is no document).
    private func ruleOutByDocument(_ document: String?, into ruledOut: inout IndexBits) {
        ruledOut.assign(documentRules)
        guard let document else { return }
        for rule in exactDocuments[document] ?? [] { ruledOut.remove(rule) }
        for (rule, prefixes) in prefixRules where ruledOut.contains(rule) {
            if prefixes.contains(where: document.hasPrefix) { ruledOut.remove(rule) }
        }
    }

    /// The rules whose session count range does not contain `sessionCount`.
    private func ruleOutBySessions(_ sessionCount: Int, into ruledOut: inout IndexBits) {
        ruledOut.removeAll()
        for check in sessionChecks where sessionCount < check.minimum || sessionCount > check.maximum {
            ruledOut.insert(check.rule)
        }
    }

    /// The rules whose user data fields are missing or have another value.
    private func ruleOutByUserData(_ userData: [String: String], into evaluation: inout RuleEvaluation) {
        // -2: the field is missing; -3: its value is one no rule asks for.
        for (field, name) in fields.enumerated() {
            evaluation.fieldValues[field] = userData[name].map { valueIDs[$0] ?? -3 } ?? -2
        }
        evaluation.userDataRuledOut.removeAll()
        for check in userDataChecks {
            let actual = evaluation.fieldValues[check.field]
            if actual == -2 || (check.value >= 0 && actual != check.value) {
                evaluation.userDataRuledOut.insert(check.rule)
            }
        }
    }

    /// Whether each item the rules name from the list is in the visitor's list.
    private func lookUp(_ list: Int, in profile: VisitorProfile, into listed: inout [Bool]) {
        let isEmpty = ProfileList.count(list, in: profile) == 0
        for (index, item) in lists[list].items.enumerated() {
            listed[index] = !isEmpty && ProfileList.contains(list, item, in: profile)
        }
    }

    /// The rules that need more of the list's items than the visitor has, from the visitor's `count` items and
    /// which of the named items are among them.
    private func ruleOutByList(_ list: Int, count: Int, into evaluation: inout RuleEvaluation) {
        let checks = lists[list]
        evaluation.listRuledOut[list].removeAll()
        for check in checks.checks {
            var found = 0
            if check.items.isEmpty {
                found = count
            } else {
                for reference in check.items where evaluation.listed[list][checks.references[reference]] {
                    found += 1
                    if found >= check.minimum { break }
                }
            }
            if found < check.minimum { evaluation.listRuledOut[list].insert(check.rule) }
        }
    }
}

/// What an evaluation of ``CompiledRules`` derived from a visitor's profile, kept for the next one: for each
/// group of criteria, the input it was derived from (the document, the session count, a revision) and the rules
/// that group ruled out; the last result, and scratch space. Nothing is allocated once it is made, except the
/// result when the matching rules change.
struct RuleEvaluation: Sendable {
    var knowsDocument = false
    var document: String?
    var documentRuledOut: IndexBits
    var sessionCount: Int?
    var sessionRuledOut: IndexBits
    var userDataRevision: UInt64?
    var fieldValues: [Int]
    var userDataRuledOut: IndexBits
    var listRevisions = [UInt64?](repeating: nil, count: ProfileList.count)
    var listRuledOut: [IndexBits]
    /// For each list, whether each item the rules name from it is in the visitor's list.
    var listed: [[Bool]]
    var matching: IndexBits
    var included: IndexBits
    var resultMatching: IndexBits
    var resultVisitorID: String?
    var result: TrackerResult?

    init(ruleCount: Int, actionCount: Int, fieldCount: Int, listItemCounts: [Int]) {
        documentRuledOut = IndexBits(count: ruleCount)
        sessionRuledOut = IndexBits(count: ruleCount)
        fieldValues = [Int](repeating: -2, count: fieldCount)
        userDataRuledOut = IndexBits(count: ruleCount)
        listRuledOut = [IndexBits](repeating: IndexBits(count: ruleCount), count: ProfileList.count)
        listed = listItemCounts.map { [Bool](repeating: false, count: $0) }
        matching = IndexBits(count: ruleCount)
        included = IndexBits(count: actionCount)
        resultMatching = IndexBits(count: ruleCount)
    }
}

/// The visitor's lists, by number: products viewed, in the cart, liked, bought; articles viewed, liked,
/// commented on, reached the goal of.
enum ProfileList {
    /// The number of lists.
    static let count = 8

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

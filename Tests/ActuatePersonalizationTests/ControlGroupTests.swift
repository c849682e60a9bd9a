import Foundation
import Testing

@testable import ActuatePersonalization

/// Control groups of a local rules file: each condition's group is close to its percentage, and the groups of two
/// conditions are independent of each other, so a visitor held out of one condition is as likely as anyone to be
/// held out of its neighbour. Before the hash got a finaliser, FNV-1a alone put neighbouring condition ids at
/// fixed bucket offsets: over 40,000 visitors conditions 1 and 2 at 10% shared no visitor at all.
@Suite("Control groups")
struct ControlGroupTests {
    private static let visitors = (0..<40_000).map { "visitor-\($0)" }

    /// A rules file with two conditions that match everyone, each with its own control group.
    private static func source(conditions first: Int, _ second: Int, percent: Double) throws -> LocalDecisionSource {
        let action = ContentAction(id: 1, name: "Banner", contentType: "text/html", content: "<p>banner</p>")
        return try LocalDecisionSource(
            rules: RulesFile(
                actions: [action],
                conditions: [first, second].map {
                    RuleCondition(id: $0, name: "Condition \($0)", actionIDs: [1], controlGroupPercent: percent)
                }
            )
        )
    }

    /// How many of `visitors` are held in each condition's control group, and in both.
    private static func groups(
        _ source: LocalDecisionSource,
        conditions first: Int,
        _ second: Int
    ) -> (first: Int, second: Int, both: Int) {
        var counts = (first: 0, second: 0, both: 0)
        for visitor in visitors {
            let decision = source.evaluate(DecisionRequest(visitorID: visitor, sessionCount: 1))
            let held = Set(decision.conditions.filter(\.isControlGroup).map(\.id))
            if held.contains(first) { counts.first += 1 }
            if held.contains(second) { counts.second += 1 }
            if held.contains(first) && held.contains(second) { counts.both += 1 }
        }
        return counts
    }

    /// Whether `count` of `trials` is within five binomial standard deviations of `probability`.
    private static func isClose(_ count: Int, of trials: Int, to probability: Double) -> Bool {
        let expected = Double(trials) * probability
        let deviation = (Double(trials) * probability * (1 - probability)).squareRoot()
        return abs(Double(count) - expected) <= 5 * deviation
    }

    @Test(
        "neighbouring conditions hold independent control groups, each at its percentage",
        arguments: [(1, 2, 10.0), (1, 3, 30.0), (100, 101, 20.0), (7, 70, 50.0)]
    )
    func independentGroups(first: Int, second: Int, percent: Double) throws {
        let source = try Self.source(conditions: first, second, percent: percent)
        let counts = Self.groups(source, conditions: first, second)
        let rate = percent / 100
        let trials = Self.visitors.count
        #expect(Self.isClose(counts.first, of: trials, to: rate), "condition \(first): \(counts.first) of \(trials)")
        #expect(Self.isClose(counts.second, of: trials, to: rate), "condition \(second): \(counts.second) of \(trials)")
        #expect(
            Self.isClose(counts.both, of: trials, to: rate * rate),
            "in both groups: \(counts.both) of \(trials), independent groups share \(rate * rate * 100)%"
        )
    }

    @Test("a visitor's bucket is the same on every launch and platform")
    func stableBuckets() {
        // Pinned values: the bucket is part of the experiment's record, so it must never change silently.
        // They are computed from UTF-8 bytes with wrapping integer arithmetic only, so every platform agrees.
        for (visitor, condition, bucket) in Self.pinnedBuckets {
            #expect(
                ControlGroup.bucket(visitorID: visitor, conditionID: condition) == bucket,
                "\(visitor):\(condition)"
            )
        }
    }

    /// Computed by a separate Python implementation of FNV-1a and fmix64 over the same bytes.
    private static let pinnedBuckets: [(String, Int, UInt64)] = [
        ("visitor-1", 1, 1_464), ("visitor-1", 2, 7_352), ("anon-7f3a", 100, 4_811), ("ünïcødé", -5, 4_776),
        ("", 0, 4_085),
    ]

    @Test("the finaliser is MurmurHash3's fmix64")
    func finaliser() {
        // Reference values of fmix64 (MurmurHash3, public domain): fmix64(0) == 0 and fmix64(1).
        #expect(ControlGroup.finalized(0) == 0)
        #expect(ControlGroup.finalized(1) == 0xb456_bcfc_34c2_cb2c)
    }
}

import Actuate
import ActuatePersonalization
import ActuateReporting
import Dispatch
import Foundation
import Synchronization

extension Benchmark {
    /// `Tracker.getResult()` over a `LocalDecisionSource` of 1,000 rules, after 10,000 behaviour events.
    static let decide = Benchmark(
        name: "decide",
        summary: "Tracker.getResult() from LocalDecisionSource: 1,000 rules, 10,000 behaviour events, µs per call"
    ) { context in
        let fixture = try DecideFixture(ruleCount: 1_000, eventCount: 10_000)
        defer { fixture.close() }
        let calls = context.size(20_000, quick: 1_000)
        // Each page view hands the tracker's state to its writer queue; the caller no longer waits for the disk
        // (issue 45), but the writer's fsyncs still share the machine.
        let callsAfterNavigation = context.size(200, quick: 20)
        var matched = 0
        var trackerCPU: [Double] = []
        var checksum = 0
        var floorCPU: [Double] = []
        // The tracker, the rules engine alone, the hand-written baseline and the tracker after a behaviour
        // event (so that nothing it kept for the previous profile can answer) in turn each round.
        let rounds = try context.interleavedRounds([
            {
                let timing = fixture.timeGetResult(calls: calls)
                matched = timing.actions
                trackerCPU.append(timing.cpuSeconds * 1e6 / Double(calls))
                return timing.seconds * 1e6 / Double(calls)
            },
            {
                context.seconds {
                    for _ in 0..<calls { checksum &+= fixture.source.evaluate(fixture.request).actions.count }
                } * 1e6 / Double(calls)
            },
            {
                let cpuStart = ThreadCPUClock.seconds()
                let seconds = context.seconds {
                    for _ in 0..<calls {
                        checksum &+= fixture.floor.matchCount(fixture.request.profile, sessionCount: 2)
                    }
                }
                floorCPU.append((ThreadCPUClock.seconds() - cpuStart) * 1e6 / Double(calls))
                return seconds * 1e6 / Double(calls)
            },
            {
                try fixture.timeGetResultAfterNavigation(calls: callsAfterNavigation) * 1e6
                    / Double(callsAfterNavigation)
            },
        ])
        let (tracker, evaluate, floor, changed) = (rounds[0], rounds[1], rounds[2], rounds[3])
        guard matched > 0 else { throw BenchmarkFailure("no rule matched; the benchmark would measure nothing") }
        // Warm-up rounds appended CPU times too; keep the measured ones.
        trackerCPU = Array(trackerCPU.suffix(tracker.count))
        floorCPU = Array(floorCPU.suffix(floor.count))
        guard checksum > 0 else { throw BenchmarkFailure("the baselines matched nothing") }
        let note =
            "\(matched) of 1,000 rules match; baseline: the same criteria checked by hand-written Set lookups, "
            + "no tracker, no result"
        return [
            Figure(
                name: "decide, Tracker.getResult(), 1,000 rules, 10,000 events",
                subject: Measurement(label: "Tracker.getResult() (await)", unit: "µs", samples: tracker),
                baseline: Measurement(label: "hand-written Set lookups", unit: "µs", samples: floor),
                higherIsBetter: false,
                note: note
            ).target(.median, 10),
            Figure(
                name: "decide, thread CPU time per call (steadier than wall time on a busy machine)",
                subject: Measurement(label: "Tracker.getResult() CPU", unit: "µs", samples: trackerCPU),
                baseline: Measurement(label: "hand-written Set lookups CPU", unit: "µs", samples: floorCPU),
                higherIsBetter: false,
                note: "CLOCK_THREAD_CPUTIME_ID around the same loops; the getResult loop never suspends"
            ),
            Figure(
                name: "decide, LocalDecisionSource.evaluate, 1,000 rules",
                subject: Measurement(label: "LocalDecisionSource.evaluate", unit: "µs", samples: evaluate),
                baseline: Measurement(label: "hand-written Set lookups", unit: "µs", samples: floor),
                higherIsBetter: false,
                note: "the rules engine alone, without the tracker's cache, suppression and attachment"
            ),
            Figure(
                name: "decide, Tracker.getResult() after each page view, 1,000 rules, 10,000 events",
                subject: Measurement(label: "navigate, then getResult() (await)", unit: "µs", samples: changed),
                baseline: Measurement(label: "hand-written Set lookups", unit: "µs", samples: floor),
                higherIsBetter: false,
                note: "the visitor's page changes between calls (two pages in turn), so the answer is recomputed "
                    + "each time; navigate and getResult() are timed together on the caller, two clock reads "
                    + "around each pair included; the files are written behind, on the tracker's writer queue"
            ).target(.median, 20),
        ]
    }
}

/// The calling thread's CPU time, which does not count time spent waiting for a core.
enum ThreadCPUClock {
    static func seconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// A tracker over 1,000 generated rules, fed 10,000 behaviour events, in a temporary directory.
final class DecideFixture: Sendable {
    let source: LocalDecisionSource
    let tracker: Tracker
    let request: DecisionRequest
    let floor: HandWrittenRules
    private let directory: URL

    init(ruleCount: Int, eventCount: Int) throws {
        let rules = DecideFixture.rules(count: ruleCount)
        source = try LocalDecisionSource(rules: rules)
        floor = HandWrittenRules(rules)
        directory = FileManager.default.temporaryDirectory.appending(path: "actuate-bench-decide-\(UUID().uuidString)")
        let reporter = Reporter(
            store: MemoryEventStore(),
            delivery: nil,
            scheduler: SystemScheduler.shared,
            identity: Identity(storage: MemoryIdentityStorage())
        )
        let session = BenchmarkDispatchers.session([ReportingPlugin(reporter: reporter)])
        let tracker = Tracker(source: source, reporter: reporter, directory: directory, session: session)
        self.tracker = tracker
        var generator = SplitMix(seed: 42)
        for index in 0..<eventCount {
            let product = "sku-\(generator.next() % 2_000)"
            switch index % 10 {
            case 0: try tracker.navigate(documentName: index % 20 == 0 ? "home" : "category/\(generator.next() % 50)")
            case 1: try tracker.productAddedToCart(productID: product)
            case 2: try tracker.articleViewed(articleID: "article-\(generator.next() % 500)")
            case 3:
                try tracker.logUserData(field: "field-\(generator.next() % 20)", value: "value-\(generator.next() % 5)")
            default: try tracker.productViewed(productID: product)
            }
        }
        try tracker.navigate(documentName: "home")
        try tracker.logUserData(field: "tier", value: "gold")
        DecideFixture.wait { await tracker.waitForReports() }
        request = DecisionRequest(visitorID: "bench-visitor", sessionCount: 2, profile: tracker.profile)
    }

    /// Calls `getResult()` `calls` times from one task; returns the wall and thread CPU seconds taken and the
    /// number of actions last returned.
    func timeGetResult(calls: Int) -> (seconds: Double, cpuSeconds: Double, actions: Int) {
        let outcome = Mutex<(Double, Double, Int)>((0, 0, 0))
        DecideFixture.wait {
            let clock = ContinuousClock()
            var actions = 0
            let cpuStart = ThreadCPUClock.seconds()
            let start = clock.now
            for _ in 0..<calls {
                actions = (try? await self.tracker.getResult().actions.count) ?? -1
            }
            let elapsed = clock.now - start
            let cpu = ThreadCPUClock.seconds() - cpuStart
            outcome.withLock { $0 = (elapsed.seconds, cpu, actions) }
        }
        return outcome.withLock { $0 }
    }

    /// Calls `getResult()` `calls` times, each after a page view that changes the visitor's current page
    /// (between two pages, ending on the fixture's own); returns the seconds spent in `getResult()` alone.
    func timeGetResultAfterNavigation(calls: Int) throws -> Double {
        let outcome = Mutex<Result<Double, any Error>>(.success(0))
        DecideFixture.wait {
            let clock = ContinuousClock()
            var onCaller = Duration.zero
            do {
                for call in 0..<calls {
                    let start = clock.now
                    try self.tracker.navigate(documentName: call.isMultiple(of: 2) ? "category/7" : "home")
                    _ = try await self.tracker.getResult()
                    onCaller += clock.now - start
                }
                try self.tracker.navigate(documentName: "home")
                outcome.withLock { $0 = .success(onCaller.seconds) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
        }
        return try outcome.withLock { try $0.get() }
    }

    func close() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `work` in a task and blocks the calling (non-pool) thread until it finishes.
    private static func wait(_ work: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await work()
            done.signal()
        }
        done.wait()
    }

    /// 1,000 rules of every kind of criterion; about one in a hundred matches the fixture's visitor.
    static func rules(count: Int) -> RulesFile {
        var actions: [ContentAction] = []
        var conditions: [RuleCondition] = []
        for index in 0..<count {
            actions.append(
                ContentAction(
                    id: index,
                    name: "Banner \(index)",
                    contentType: "text/html",
                    content: "<a href=\"https://shop.example.com/promo/\(index)\">Promotion \(index)</a>"
                )
            )
            var targeting = RuleTargeting()
            switch index % 5 {
            case 0: targeting.documents = [index % 100 == 0 ? "home" : "landing/\(index)", "campaign/\(index)/*"]
            case 1: targeting.productsSeen = SeenItemsRule(list: .viewed, anyOf: ["sku-x\(index)", "sku-y\(index)"])
            case 2:
                targeting.userData = ["tier": index % 100 == 2 ? "gold" : "tier-\(index)"]
                targeting.sessionCount = SessionCountRule(min: 2)
            case 3: targeting.articlesSeen = SeenItemsRule(list: .liked, minCount: 1 + index % 3)
            default:
                targeting.productsSeen = SeenItemsRule(
                    list: .addedToCart,
                    anyOf: ["sku-\(index)", "sku-z"],
                    minCount: 2
                )
            }
            conditions.append(RuleCondition(id: index, name: "Rule \(index)", actionIDs: [index], targeting: targeting))
        }
        return RulesFile(actions: actions, conditions: conditions)
    }
}

/// The floor of rule evaluation: each rule's criteria checked with plain `Set` lookups written out by hand.
struct HandWrittenRules: Sendable {
    private struct Rule: Sendable {
        var documents: Set<String>?
        var prefixes: [String]
        var viewed: [String]
        var cart: [String]
        var cartMinimum: Int
        var likedArticlesMinimum: Int
        var userData: [String: String]
        var minimumSessions: Int
    }

    private let rules: [Rule]

    init(_ file: RulesFile) {
        rules = file.conditions.map { condition in
            let targeting = condition.targeting
            return Rule(
                documents: targeting.documents.map { Set($0.filter { !$0.hasSuffix("*") }) },
                prefixes: targeting.documents?.filter { $0.hasSuffix("*") }.map { String($0.dropLast()) } ?? [],
                viewed: targeting.productsSeen?.list == .viewed ? targeting.productsSeen?.anyOf ?? [] : [],
                cart: targeting.productsSeen?.list == .addedToCart ? targeting.productsSeen?.anyOf ?? [] : [],
                cartMinimum: targeting.productsSeen?.list == .addedToCart ? targeting.productsSeen?.minCount ?? 0 : 0,
                likedArticlesMinimum: targeting.articlesSeen?.minCount ?? 0,
                userData: targeting.userData ?? [:],
                minimumSessions: targeting.sessionCount?.min ?? 0
            )
        }
    }

    func matchCount(_ profile: VisitorProfile, sessionCount: Int) -> Int {
        var matches = 0
        for rule in rules {
            if sessionCount < rule.minimumSessions { continue }
            if let documents = rule.documents {
                guard let document = profile.currentDocument else { continue }
                if !documents.contains(document), !rule.prefixes.contains(where: document.hasPrefix) { continue }
            }
            if !rule.viewed.isEmpty, !rule.viewed.contains(where: profile.viewedProducts.contains) { continue }
            if rule.cartMinimum > 0 {
                var found = 0
                for item in rule.cart where profile.cartProducts.contains(item) { found += 1 }
                if found < rule.cartMinimum { continue }
            }
            if profile.likedArticles.count < rule.likedArticlesMinimum { continue }
            if rule.userData.contains(where: { profile.userData[$0.key] != $0.value }) { continue }
            matches += 1
        }
        return matches
    }
}

/// A small deterministic generator, so every run feeds the same events.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

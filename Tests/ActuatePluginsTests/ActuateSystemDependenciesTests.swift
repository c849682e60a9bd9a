import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuatePlugins

@Suite("A system's dependencies")
struct ActuateSystemDependenciesTests {
    @Test("a system's configuration sets its dispatcher's values")
    func systemValues() async throws {
        var configuration = ActuateConfiguration()
        configuration.dependencies[GreetingServerKey.self] = PrefixGreetingServer(prefix: "system")
        let system = try ActuateSystem.setup(group: DependencyFeature.self, configuration: configuration)
        let presenter = DependencyPresenter()
        let outcome = await system.mainSession.perform(DependencyFeature.asyncGreet, input: "s", presenter: presenter)
        #expect(outcome.isSuccess)
        #expect(presenter.recorded == ["system:s"])
    }
}

import ActuateReporting
import Foundation
import Testing

@Suite("ReportEvent")
struct ReportEventTests {
    @Test("round-trips through JSON with typed properties")
    func roundTrips() throws {
        let event = ReportEvent(
            type: "executed",
            timestamp: Date(timeIntervalSince1970: 1_000),
            sessionID: "s1",
            anonymousID: "a1",
            properties: ["actionId": 7, "name": "Banner", "flags": [true, nil], "nested": ["k": 1.5]]
        )
        let data = try JSONEncoder().encode(event)
        let decoded = try JSONDecoder().decode(ReportEvent.self, from: data)
        #expect(decoded == event)
        #expect(decoded.properties["actionId"]?.numberValue == 7)
    }
}

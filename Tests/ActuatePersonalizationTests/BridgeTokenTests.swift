import Testing

@testable import ActuatePersonalization

@Suite("Bridge tokens")
struct BridgeTokenTests {
    @Test("a random token is 128 bits in 32 lowercase hex digits, and no two are the same")
    func random() {
        let tokens = (0..<200).map { _ in BridgeToken.random().text }
        #expect(Set(tokens).count == tokens.count)
        for token in tokens {
            #expect(token.count == 32)
            #expect(token.allSatisfy { "0123456789abcdef".contains($0) }, "\(token)")
        }
        // Every digit position takes more than one value: no half of the token is fixed.
        for position in 0..<32 {
            let digits = Set(tokens.map { Array($0)[position] })
            #expect(digits.count > 1, "digit \(position) is always \(digits)")
        }
    }

    @Test("a token matches itself only: not a prefix, an extension, or a string differing in one byte")
    func matches() {
        let token = BridgeToken("0123456789abcdef0123456789abcdef")
        #expect(token.matches("0123456789abcdef0123456789abcdef"))
        #expect(!token.matches("1123456789abcdef0123456789abcdef"))
        #expect(!token.matches("0123456789abcdef0123456789abcdee"))
        #expect(!token.matches("0123456789ABCDEF0123456789ABCDEF"))
        #expect(!token.matches("0123456789abcdef0123456789abcde"))
        #expect(!token.matches("0123456789abcdef0123456789abcdef0"))
        #expect(!token.matches(""))
        #expect(!BridgeToken("").matches("x"))
        #expect(BridgeToken("").matches(""))
    }
}

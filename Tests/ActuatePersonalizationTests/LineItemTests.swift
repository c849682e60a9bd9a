import Testing

@testable import ActuatePersonalization

@Suite("LineItem and Order")
struct LineItemTests {
    @Test("A line item's quantity defaults to 1 and its price to the product's")
    func defaults() throws {
        let line = try LineItem(product: Product(id: "sku-1", price: 20))
        #expect(line.quantity == 1)
        #expect(line.price == 20)
        #expect(line.total == 20)
    }

    @Test("A line item's own price wins over the product's")
    func ownPrice() throws {
        let line = try LineItem(product: Product(id: "sku-1", price: 20), quantity: 3, price: 15)
        #expect(line.total == 45)
    }

    @Test("An order totals its lines unless a total is given, and lists each product once")
    func orderTotal() throws {
        let shoes = try Product(id: "sku-1", price: 20)
        let socks = try Product(id: "sku-2", price: 2.5)
        let lines = [
            try LineItem(product: shoes), try LineItem(product: socks, quantity: 4), try LineItem(product: shoes),
        ]
        #expect(try Order(lineItems: lines).total == 50)
        #expect(try Order(lineItems: lines, totalValue: 45).total == 45)
        #expect(try Order(lineItems: lines).productIDs == ["sku-1", "sku-2"])
        #expect(try Order(orderID: " A-1 ").orderID == "A-1")
    }
}

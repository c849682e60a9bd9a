import Foundation

/// What the shop's actions show the user.
protocol ShopPresenter: Sendable {
    func showProduct(_ product: Product)
    func showCart(_ items: [Product])
    func showRecommendations(_ products: [Product])
    func showMessage(_ message: String)
}

/// A presenter that writes to the terminal.
struct TerminalPresenter: ShopPresenter {
    func showProduct(_ product: Product) {
        say("📦 \(product.name) — \(formatPrice(product.price))")
    }

    func showCart(_ items: [Product]) {
        let total = items.reduce(0) { $0 + $1.price }
        say("🛒 Cart: \(items.map(\.name).joined(separator: ", ")) (total \(formatPrice(total)))")
    }

    func showRecommendations(_ products: [Product]) {
        say("✨ Recommended for you: \(products.map(\.name).joined(separator: ", "))")
    }

    func showMessage(_ message: String) {
        say("ℹ️  \(message)")
    }

    private func say(_ line: String) {
        print("   " + line)
    }

    private func formatPrice(_ price: Double) -> String {
        String(format: "€%.2f", price)
    }
}

print("shop-demo: under construction")

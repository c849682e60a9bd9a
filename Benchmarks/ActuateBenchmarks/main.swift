print("actuate-bench: under construction")

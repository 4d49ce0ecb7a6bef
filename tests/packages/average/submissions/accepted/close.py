a, b = map(int, input().split())
print(f"{(a + b) / 2 + 1e-8:.9f}")

a, b = map(int, input().split())
print(f"{(a + b) / 2 + 1e-3:.9f}")

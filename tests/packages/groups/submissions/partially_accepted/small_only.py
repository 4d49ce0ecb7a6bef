n = int(input())
print(2 * n if n < 1000 else n)

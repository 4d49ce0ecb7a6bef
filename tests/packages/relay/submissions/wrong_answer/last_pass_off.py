# right on passes 1 and 2, one too many on pass 3
p, v = map(int, input().split())
print(v + p + (p == 3), flush=True)

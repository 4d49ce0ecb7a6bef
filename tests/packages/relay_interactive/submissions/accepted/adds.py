p, v = map(int, input().split())
print(v + p, flush=True)

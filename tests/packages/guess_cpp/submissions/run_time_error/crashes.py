# one guess, then a crash: it ends first, and the crash is the verdict
print(500, flush=True)
raise SystemExit(3)

# guesses once, then burns CPU
print(500, flush=True)
while True:
    pass

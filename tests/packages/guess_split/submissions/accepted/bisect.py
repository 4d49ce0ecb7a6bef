low, high = 1, 1000
while True:
    guess = (low + high) // 2
    print(guess, flush=True)
    said = input()
    if said == "correct":
        break
    if said == "higher":
        low = guess + 1
    else:
        high = guess - 1

def play(low, high):
    while True:
        guess = (low + high) // 2
        print(guess, flush=True)
        said = input()
        if said == "correct":
            return
        if said == "higher":
            low = guess + 1
        else:
            high = guess - 1

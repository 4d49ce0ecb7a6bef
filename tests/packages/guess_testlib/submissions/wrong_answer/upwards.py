# counts up from 1: out of guesses on most secrets (the interactor rejects first)
guess = 1
while True:
    print(guess, flush=True)
    if input().strip() == "correct":
        break
    guess += 1

# guesses down from 11: on secret 1 that is 11 guesses, which the interactor allows and
# the checker rejects; on the others the interactor rejects
for guess in range(11, 0, -1):
    print(guess, flush=True)
    if input().strip() == "correct":
        break

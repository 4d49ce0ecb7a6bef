while True:
    print(1, flush=True)
    if input() == "correct":
        break

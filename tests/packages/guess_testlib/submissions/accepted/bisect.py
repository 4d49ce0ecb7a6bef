low, high = 1, 1000
while low <= high:
    mid = (low + high) // 2
    print(mid, flush=True)
    reply = input().strip()
    if reply == "correct":
        break
    if reply == "lower":
        high = mid - 1
    else:
        low = mid + 1

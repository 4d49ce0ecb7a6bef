# wrong on the sample (the first case in the format's order), right on secret/1, and
# spinning past any limit on secret/2: problemtools stops at the sample's WA
n = int(input())
if n == 3:
    while True:
        pass
print(2 * n + (1 if n == 1 else 0))

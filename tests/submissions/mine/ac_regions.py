# gridjudge-test: skip-families=large
# Mine in pure Python (too slow for 1000x1000 boards, hence the directive above).
import sys


def solve(n, m, mines):
    count = [0] * (n * m)
    mine = bytearray(n * m)
    for x, y in mines:
        mine[x * m + y] = 1
    for x, y in mines:
        for r in range(max(0, x - 1), min(n, x + 2)):
            for c in range(max(0, y - 1), min(m, y + 2)):
                count[r * m + c] += 1
    region = [-1] * (n * m)
    regions = 0
    for start in range(n * m):
        if mine[start] or count[start] or region[start] >= 0:
            continue
        region[start] = regions
        stack = [start]
        while stack:
            cur = stack.pop()
            r0, c0 = divmod(cur, m)
            for r in range(max(0, r0 - 1), min(n, r0 + 2)):
                for c in range(max(0, c0 - 1), min(m, c0 + 2)):
                    j = r * m + c
                    if not mine[j] and not count[j] and region[j] < 0:
                        region[j] = regions
                        stack.append(j)
        regions += 1
    border = [0] * regions
    value = 0
    for i in range(n * m):
        if mine[i] or not count[i]:
            continue
        r0, c0 = divmod(i, m)
        owner = -1
        for r in range(max(0, r0 - 1), min(n, r0 + 2)):
            for c in range(max(0, c0 - 1), min(m, c0 + 2)):
                j = r * m + c
                if not mine[j] and not count[j]:
                    owner = region[j]
        if owner >= 0:
            border[owner] += 1
        else:
            value ^= 1
    for b in border:
        value ^= 2 if b % 2 else 1
    return value


def main():
    data = sys.stdin.buffer.read().split()
    t, pos, out = int(data[0]), 1, []
    for case in range(1, t + 1):
        n, m, k = int(data[pos]), int(data[pos + 1]), int(data[pos + 2])
        pos += 3
        mines = [(int(data[pos + 2 * i]), int(data[pos + 2 * i + 1])) for i in range(k)]
        pos += 2 * k
        out.append(f"Case #{case}: {'Xiemao' if solve(n, m, mines) else 'Fanglaoshi'}")
    print("\n".join(out))


main()

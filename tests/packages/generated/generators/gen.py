"""gen.py N...: two numbers made from the integer arguments; `small`: up to 10.
gen.py --file NAME V: writes NAME.in and NAME.ans itself."""

import sys

args = sys.argv[1:]
if args[0] == "--file":
    value = int(args[2])
    with open(f"{args[1]}.in", "w") as file:
        file.write(f"{value} {value}\n")
    with open(f"{args[1]}.ans", "w") as file:
        file.write(f"{2 * value}\n")
    sys.exit(0)
total = sum(abs(int(a)) for a in args if a.lstrip("-").isdigit())
bound = 11 if "small" in args else 1001
print(total % bound, (total // 7) % bound)

# two integers in [0, MAX] on one line; `--max N` sets MAX (1000 without it)
import sys

args = sys.argv[1:]
top = int(args[args.index("--max") + 1]) if "--max" in args else 1000
text = sys.stdin.read()
words = text.split()
ok = text.endswith("\n") and len(words) == 2 and all(w.isdigit() for w in words)
sys.exit(42 if ok and all(int(w) <= top for w in words) else 43)

import sys

print(2 * int(sys.argv[1]))

print(int(input()) + {{SHIFT}})

print(int(input()), 0)

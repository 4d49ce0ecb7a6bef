from reading import read_n

print(2 * read_n())

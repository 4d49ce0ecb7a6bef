from reading import read_n

print(3 * read_n())

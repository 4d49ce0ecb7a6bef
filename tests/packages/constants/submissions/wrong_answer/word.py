print("{{SHIFT.word}}")  # printed as written, not "five": a wrong answer either way

print("{{SHIFT.word}}")

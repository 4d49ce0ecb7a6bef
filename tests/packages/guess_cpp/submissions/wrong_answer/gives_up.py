# exits at once without a guess: the interactor sees no guess and rejects

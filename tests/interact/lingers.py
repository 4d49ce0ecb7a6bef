# interactor of the seam tests: asks one number, then spins on, whatever the submission
# does (a judge's bug): it must be ended once the submission's run is over
print(3, flush=True)
input()
while True:
    pass

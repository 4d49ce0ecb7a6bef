# Never imported by main.py: if it runs, the judge imported it from the scratch dir.
import time

with open("/tmp/gj_shadow_ran", "w") as mark:
    mark.write("ran")
end = time.process_time() + 2.0
while time.process_time() < end:
    pass

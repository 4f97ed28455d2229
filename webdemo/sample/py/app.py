from util import shout

print(shout("kandev", 2))

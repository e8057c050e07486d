# Makes a chain of {DEPTH} directories in its container, a file at the bottom, and waits.
from wire import *
host = connect()
path = os.environ["HOME"]
for n in range({DEPTH}):
    path = os.path.join(path, "d")
    os.mkdir(path)
with open(os.path.join(path, "bottom.bin"), "wb") as f:
    f.write(b"x" * 4096)
stay()

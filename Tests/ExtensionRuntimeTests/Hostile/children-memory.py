# Three children each take 300 MB of their own (touched), then the request completes: the memory limit counts
# the whole tree.
from wire import *
import time
host = connect()
ready = []
for n in range(3):
    r, w = os.pipe()
    if os.fork() == 0:
        block = bytearray(300 << 20)
        for i in range(0, len(block), 4096):
            block[i] = 1
        os.write(w, b"x")
        stay()
    ready.append(r)
for r in ready:
    os.read(r, 1)
time.sleep(1)
send_on(host, message(COMPLETE, complete([])[0]))
stay()

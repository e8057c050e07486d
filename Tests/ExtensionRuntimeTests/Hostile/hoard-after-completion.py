# Completes its request at once, then, once the host has ended the request (its time after completion begun),
# takes 300 MB (touched) while it lives on, as an upload that reads a whole file does: the host ends it at its
# memory limit, and the run says the work was lost.
from wire import *
host = connect()
send_on(host, message(COMPLETE, complete([])[0]))
while receive(host)[0] != ENDED:
    pass
block = bytearray(300 << 20)
for i in range(0, len(block), 4096):
    block[i] = 1
stay()

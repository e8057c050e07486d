# Completes its request at once, then takes 300 MB (touched) while it lives on after completion, as an upload
# that reads a whole file does: the host ends it at its memory limit, and the run says the work was lost.
from wire import *
host = connect()
send_on(host, message(COMPLETE, complete([])[0]))
block = bytearray(300 << 20)
for i in range(0, len(block), 4096):
    block[i] = 1
stay()

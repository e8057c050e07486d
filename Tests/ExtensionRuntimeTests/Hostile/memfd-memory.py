# Fills a memory file with 400 MB through write(2), never mapping it, then completes: memory is memory.
from wire import *
import time
host = connect()
fd = os.memfd_create("hoard")
chunk = b"\x01" * (1 << 20)
for n in range(400):
    os.write(fd, chunk)
time.sleep(1)
send_on(host, message(COMPLETE, complete([])[0]))
stay()

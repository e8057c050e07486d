# Makes {LINKS} symbolic links in its container (no blocks, under the meter's entry limit), completes, then
# starts {CHILDREN} children of {MEGABYTES} MB each, every page touched: memory taken while the host walks the
# disk as the request ends.
from wire import *
host = connect()
os.makedirs("links", exist_ok=True)
for n in range({LINKS}):
    os.symlink("nowhere", "links/%d" % n)
body, fds = complete([])
send_on(host, message(COMPLETE, body), fds)
for n in range({CHILDREN}):
    if os.fork() == 0:
        data = bytearray({MEGABYTES} << 20)
        for i in range(0, len(data), 4096):
            data[i] = 1
        stay()
stay()

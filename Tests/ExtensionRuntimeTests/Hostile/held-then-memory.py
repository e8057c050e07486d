# Holds the host on an openURL (the test's handler returns only once this tree has been ended), then, {ORDER}:
# "after" sends its completion and starts {CHILDREN} children of {MEGABYTES} MB each, every page touched; "before"
# starts them first and completes once they hold their memory. The host reads the completion late either way.
# Sent with sendmsg: a small sendto waits for the host's word on it (it could be a DNS query), which the held host
# would never give.
from wire import *
host = connect()
while receive(host)[0] != REQUEST:
    pass
host.sendmsg([message(OPEN_URL, u32(1) + string("held:until-ended"))])
if "{ORDER}" == "after":
    host.sendmsg([message(COMPLETE, complete([])[0])])
held = []
for n in range({CHILDREN}):
    ready, told = os.pipe()
    if os.fork() == 0:
        data = bytearray({MEGABYTES} << 20)
        for i in range(0, len(data), 4096):
            data[i] = 1
        os.write(told, b"1")
        stay()
    held.append(ready)
if "{ORDER}" == "before":
    for ready in held:
        os.read(ready, 1)
    host.sendmsg([message(COMPLETE, complete([])[0])])
stay()

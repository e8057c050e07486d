# Floods the host with openURL requests and never reads its answers, its receive buffer as small as it goes: a
# host that sends blocking would stop supervising here.
from wire import *
host = connect()
host.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1)
for n in range(1, 200001):
    try:
        send_on(host, message(OPEN_URL, u32(n) + string("https://example.com/%d" % n)))
    except OSError:
        break
stay()

# Keeps what it was shared {WHEN}: "before" it completes, by a connection to 127.0.0.1:{PORT} ("thread": the same,
# from a thread of its own, as URLSession connects); "right-after" the
# completion is sent and "after" the host's word that the request has ended, by the same connection; "group" by
# a file in its app group, "defaults" by its app group's defaults as Foundation writes them; "fastopen" after the
# host's word, by a connection opened with sendto(MSG_FASTOPEN) and no connect(2); "never" not at all.
# Completes with nothing returned, then waits for the host's word.
from wire import *
import socket
host = connect()
def dial():
    with socket.create_connection(("127.0.0.1", {PORT})) as s:
        s.sendall(b"GET /kept HTTP/1.0\r\n\r\n")
if "{WHEN}" == "before":
    dial()
if "{WHEN}" == "thread":
    import threading
    dialler = threading.Thread(target=dial)
    dialler.start()
    dialler.join()
if "{WHEN}" == "group":
    with open(os.path.join(os.environ["OPENSHARING_APP_GROUP_CONTAINERS"], "kept.txt"), "w") as f:
        f.write("kept")
if "{WHEN}" == "defaults":
    os.makedirs(os.path.join(os.environ["HOME"], ".config"), exist_ok=True)
    with open(os.path.join(os.environ["HOME"], ".config", "group.org.example.plist"), "w") as f:
        f.write("<plist/>")
body, fds = complete([])
send_on(host, message(COMPLETE, body), fds)
if "{WHEN}" == "right-after":
    dial()
while True:
    kind, _, _ = receive(host)
    if kind == ENDED or kind is None:
        break
if "{WHEN}" == "after":
    dial()
if "{WHEN}" == "fastopen":
    with socket.socket() as s:
        s.sendto(b"GET /kept HTTP/1.0\r\n\r\n", socket.MSG_FASTOPEN, ("127.0.0.1", {PORT}))
os._exit(0)

# Says it is an optimised program and completes its request; with {again} "yes", then sends a second completion
# and a cancellation of its own (one request-ended-twice finding). Waits for the host's word that it has the
# outcome.
from wire import *
host = connect()
body, descriptors = complete([])
send_on(host, message(COMPLETE, body), descriptors)
if "{again}" == "yes":
    send_on(host, message(COMPLETE, body), descriptors)
    send_on(host, message(CANCEL, error("probe", 1, "late")))
while True:
    kind, _, _ = receive(host)
    if kind == ENDED or kind is None:
        break
os._exit(0)
